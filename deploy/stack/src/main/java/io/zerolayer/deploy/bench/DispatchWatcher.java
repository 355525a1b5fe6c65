package io.zerolayer.deploy.bench;

import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.ClusterSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Watches the dispatch topic as a worker would (committed records only) and notes, per
 * sequence, when its dispatch was written (record timestamp) and when it became visible.
 */
final class DispatchWatcher implements AutoCloseable {

  /** When a dispatch was written by the router and when a worker could first read it (epoch ms). */
  record Seen(long writtenMs, long visibleMs) {
  }

  private final KafkaConsumer<String, DispatchTask> consumer;
  private final Map<String, Seen> seen = new ConcurrentHashMap<>();
  private final CountDownLatch positioned = new CountDownLatch(1);
  private final Thread reader;
  private volatile boolean running = true;

  DispatchWatcher(final ClusterSettings cluster, final ContractSerdes serdes) throws InterruptedException {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
    consumer = new KafkaConsumer<>(props, new StringDeserializer(), serdes.value(Topics.DISPATCH).deserializer());
    final String topic = cluster.catalogue().name(Topics.DISPATCH);
    reader = new Thread(() -> read(topic), "dispatch-watcher");
    reader.start();
    positioned.await();
  }

  private void read(final String topic) {
    try {
      final List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      partitions.forEach(consumer::position);
      positioned.countDown();
      while (running) {
        for (final ConsumerRecord<String, DispatchTask> record : consumer.poll(Duration.ofMillis(20))) {
          seen.putIfAbsent(record.value().getSequenceId(), new Seen(record.timestamp(), System.currentTimeMillis()));
        }
      }
    } catch (final WakeupException e) {
      // closing
    } finally {
      positioned.countDown();
      consumer.close();
    }
  }

  Seen of(final String sequenceId) {
    return seen.get(sequenceId);
  }

  int count() {
    return seen.size();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    reader.join();
  }
}
