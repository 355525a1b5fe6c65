package io.zerolayer.bench;

import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the decisions topic from its start (committed records only, as a worker sees its tasks)
 * and keeps every decision that sent a sequence to an instance. {@link #drain} reads to the end
 * of the topic as it stands, then stops.
 */
final class DecisionLog implements AutoCloseable {

  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

  private final ContractSerdes serdes;
  private final KafkaConsumer<String, RoutingDecision> consumer;
  private final List<Dispatch> dispatches = new ArrayList<>();
  private final CompletableFuture<List<Dispatch>> drained = new CompletableFuture<>();
  private final Thread reader;
  private volatile boolean draining;

  DecisionLog(final ClusterSettings cluster) {
    serdes = new ContractSerdes(cluster.serdes());
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer = new KafkaConsumer<>(props, new StringDeserializer(), serdes.value(Topics.DECISIONS).deserializer());
    final String topic = cluster.catalogue().name(Topics.DECISIONS);
    reader = new Thread(() -> read(topic), "bench-decisions");
    reader.setDaemon(true);
    reader.start();
  }

  private void read(final String topic) {
    try {
      final List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (!draining) {
        poll();
      }
      final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        poll();
      }
      drained.complete(List.copyOf(dispatches));
    } catch (final WakeupException e) {
      drained.completeExceptionally(new IllegalStateException("closed before the decisions were read"));
    } catch (final RuntimeException e) {
      drained.completeExceptionally(e);
    } finally {
      consumer.close();
    }
  }

  private void poll() {
    for (final ConsumerRecord<String, RoutingDecision> record : consumer.poll(Duration.ofMillis(100))) {
      add(record.value());
    }
  }

  private void add(final RoutingDecision decision) {
    if (decision.getInstanceId() != null && decision.getEpoch() > 0) {
      dispatches.add(new Dispatch(decision.getSequenceId(), decision.getEpoch(), decision.getInstanceId(),
          decision.getOutcome(), decision.getDecidedAtMs(), decision.getReason(), decision.getPredictedLatencyMs(),
          decision.getPredictedTtftMs()));
    }
  }

  /** Reads to the end of the topic as it is now (the router's last committed decision), then stops. */
  List<Dispatch> drain() throws Exception {
    draining = true;
    return drained.get(DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (reader.isAlive()) {
      consumer.wakeup();
    }
    reader.join(DRAIN_TIMEOUT.toMillis());
    serdes.close();
  }
}
