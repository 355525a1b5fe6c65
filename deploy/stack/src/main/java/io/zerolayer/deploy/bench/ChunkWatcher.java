package io.zerolayer.deploy.bench;

import io.zerolayer.runtime.ClusterSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a topic from its end as a client would (committed records only) and keeps, per key,
 * every record with the wall-clock time it was read.
 *
 * @param <V> record type
 */
final class ChunkWatcher<V> implements AutoCloseable {

  /** A record and when it became readable. */
  record Seen<V>(V value, long readAtMs) {
  }

  private final KafkaConsumer<String, V> consumer;
  private final Map<String, List<Seen<V>>> byKey = new ConcurrentHashMap<>();
  private final CountDownLatch positioned = new CountDownLatch(1);
  private final Thread reader;
  private volatile boolean running = true;

  ChunkWatcher(final ClusterSettings cluster, final String topic, final Deserializer<V> values)
      throws InterruptedException {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
    consumer = new KafkaConsumer<>(props, new StringDeserializer(), values);
    reader = new Thread(() -> read(topic), "watch-" + topic);
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
        for (final ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(10))) {
          final List<Seen<V>> seen = byKey.computeIfAbsent(record.key(), k -> new ArrayList<>());
          synchronized (seen) {
            seen.add(new Seen<>(record.value(), System.currentTimeMillis()));
          }
        }
      }
    } catch (final WakeupException e) {
      // closing
    } finally {
      positioned.countDown();
      consumer.close();
    }
  }

  /** What was read for a key so far (a copy). */
  List<Seen<V>> of(final String key) {
    final List<Seen<V>> seen = byKey.get(key);
    if (seen == null) {
      return List.of();
    }
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  /** Sum of a measure over what was read for a key. */
  int sum(final String key, final Function<V, Integer> measure) {
    return of(key).stream().mapToInt(s -> measure.apply(s.value())).sum();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    consumer.wakeup();
    reader.join();
  }
}
