package io.zerolayer.testsupport;

import static org.awaitility.Awaitility.await;

import io.zerolayer.contract.cluster.ClusterSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;

/** Reads a whole topic (committed records) in the background, for assertions. */
public final class RecordCollector<K, V> implements AutoCloseable {

  private final KafkaConsumer<K, V> consumer;
  private final List<ConsumerRecord<K, V>> records = new ArrayList<>();
  private final Thread reader;
  private volatile boolean running = true;

  public RecordCollector(final ClusterSettings cluster, final String topic, final Deserializer<K> keys,
      final Deserializer<V> values) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer = new KafkaConsumer<>(props, keys, values);
    final List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
        .map(p -> new TopicPartition(topic, p.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    reader = new Thread(this::read, "collect-" + topic);
    reader.setDaemon(true);
    reader.start();
  }

  private void read() {
    try {
      while (running) {
        for (final ConsumerRecord<K, V> record : consumer.poll(Duration.ofMillis(100))) {
          synchronized (records) {
            records.add(record);
          }
        }
      }
    } catch (final WakeupException e) {
      // closing
    } finally {
      consumer.close();
    }
  }

  /** A copy of what was read so far. */
  public List<ConsumerRecord<K, V>> records() {
    synchronized (records) {
      return List.copyOf(records);
    }
  }

  /** Waits until what was read satisfies the condition, and returns it. */
  public List<ConsumerRecord<K, V>> awaitUntil(final Predicate<List<ConsumerRecord<K, V>>> condition,
      final Duration timeout) {
    await().atMost(timeout).pollInterval(Duration.ofMillis(50)).until(() -> condition.test(records()));
    return records();
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      reader.join(5_000);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
