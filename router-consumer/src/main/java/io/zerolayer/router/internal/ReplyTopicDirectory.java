package io.zerolayer.router.internal;

import io.zerolayer.contract.cluster.ClusterSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Whether a reply topic a request names exists, asked of the cluster and remembered for a while:
 * token-buffer could not write a response to a topic that does not exist (the broker does not
 * create topics), so such a request is refused at the door rather than wedge the token plane.
 * A topic found stays known for {@link #KNOWN_FOR}, one not found is asked about again after
 * {@link #MISSING_FOR}. Used by one router thread only.
 */
public final class ReplyTopicDirectory implements AutoCloseable {

  static final Duration KNOWN_FOR = Duration.ofMinutes(5);
  static final Duration MISSING_FOR = Duration.ofSeconds(5);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final int REMEMBERED = 10_000;

  private record Answer(boolean exists, long askedAtNanos) {
  }

  private final Admin admin;
  private final Map<String, Answer> answers = BoundedMaps.keepingNewest(REMEMBERED);

  public ReplyTopicDirectory(final ClusterSettings cluster) {
    this.admin = Admin.create(new HashMap<>(cluster.clientProperties()));
  }

  /**
   * Whether the topic exists.
   *
   * @throws TimeoutException when the cluster does not answer in time; retriable
   */
  public boolean exists(final String topic) {
    final long now = System.nanoTime();
    final Answer known = answers.get(topic);
    if (known != null && now - known.askedAtNanos() < (known.exists() ? KNOWN_FOR : MISSING_FOR).toNanos()) {
      return known.exists();
    }
    final boolean exists = ask(topic);
    answers.put(topic, new Answer(exists, now));
    return exists;
  }

  private boolean ask(final String topic) {
    try {
      admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (final ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return false;
      }
      throw new TimeoutException("Could not find out whether reply topic " + topic + " exists: " + e.getCause(), e);
    } catch (final java.util.concurrent.TimeoutException e) {
      throw new TimeoutException("Could not find out within " + TIMEOUT + " whether reply topic " + topic
          + " exists", e);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TimeoutException("Interrupted while asking whether reply topic " + topic + " exists", e);
    }
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }
}
