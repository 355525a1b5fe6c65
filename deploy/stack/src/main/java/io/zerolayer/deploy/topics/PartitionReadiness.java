package io.zerolayer.deploy.topics;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

/**
 * Waits until every partition of some topics answers ListOffsets, that is, has a leader that
 * serves it. A fresh topic is created before its leaders are elected, and producing to it in that
 * window fails.
 */
public final class PartitionReadiness {

  private static final Duration RETRY_PAUSE = Duration.ofMillis(200);

  private final Admin admin;
  private final Duration timeout;

  public PartitionReadiness(final Admin admin, final Duration timeout) {
    this.admin = admin;
    this.timeout = timeout;
  }

  /** Returns once every partition of {@code topics} answers; throws after the timeout, saying what to check. */
  public void await(final Collection<String> topics) {
    final long deadline = System.nanoTime() + timeout.toNanos();
    Throwable last = null;
    while (System.nanoTime() < deadline) {
      try {
        admin.listOffsets(latestOfEveryPartition(topics, deadline)).all()
            .get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
        return;
      } catch (final ExecutionException e) {
        last = e.getCause();
      } catch (final TimeoutException e) {
        last = e;
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ProvisioningException("Interrupted while waiting for the partitions of " + topics, e);
      }
      pause();
    }
    throw new ProvisioningException("Not every partition of " + topics + " answered ListOffsets within "
        + timeout.toSeconds() + " s (last error: " + last + "); producing to them would fail. Check that the "
        + "brokers are up and every partition has a leader (kafka-topics.sh --describe "
        + "--unavailable-partitions).", last);
  }

  private Map<TopicPartition, OffsetSpec> latestOfEveryPartition(final Collection<String> topics,
      final long deadline) throws ExecutionException, TimeoutException, InterruptedException {
    final Map<String, TopicDescription> descriptions = admin.describeTopics(topics).allTopicNames()
        .get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
    final Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    descriptions.forEach((name, description) -> description.partitions().forEach(
        partition -> request.put(new TopicPartition(name, partition.partition()), OffsetSpec.latest())));
    return request;
  }

  private static long remainingMillis(final long deadline) {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
  }

  private static void pause() {
    try {
      Thread.sleep(RETRY_PAUSE.toMillis());
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ProvisioningException("Interrupted while waiting for partitions to get leaders", e);
    }
  }
}
