package io.zerolayer.bench;

import io.zerolayer.contract.cluster.ClusterSettings;
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
 * Reads a topic from its end as a client or a worker would (committed records only) and keeps,
 * per sequence, every record with when it was written and when it became readable.
 *
 * @param <V> record type
 */
final class ChunkWatcher<V> implements AutoCloseable {

  /** A record, its timestamp (when it was written) and when it became readable (wall clock). */
  record Seen<V>(V value, long writtenMs, long readAtMs) {
  }

  private final KafkaConsumer<String, V> consumer;
  private final Map<String, List<Seen<V>>> byKey = new ConcurrentHashMap<>();
  private final CountDownLatch positioned = new CountDownLatch(1);
  private final Thread reader;
  private volatile boolean running = true;

  private final Function<V, String> sequenceOf;

  /**
   * @param sequenceOf the sequence a record belongs to
   * @param committedOnly whether records count once their transaction committed, as most readers
   *     see them, or once written, as a worker reads its tasks
   */
  ChunkWatcher(final ClusterSettings cluster, final String topic, final Deserializer<V> values,
      final Function<V, String> sequenceOf, final boolean committedOnly) throws InterruptedException {
    this.sequenceOf = sequenceOf;
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, committedOnly ? "read_committed" : "read_uncommitted");
    // The default fetch wait: the broker answers a waiting fetch as soon as a record arrives, so a
    // shorter wait times nothing better and only loads the broker the benchmark measures.
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
        for (final ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(100))) {
          final List<Seen<V>> seen = byKey.computeIfAbsent(sequenceOf.apply(record.value()), k -> new ArrayList<>());
          synchronized (seen) {
            seen.add(new Seen<>(record.value(), record.timestamp(), System.currentTimeMillis()));
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

  /** How many sequences have records. */
  int sequences() {
    return byKey.size();
  }

  /** What was read for a sequence so far (a copy). */
  List<Seen<V>> of(final String key) {
    final List<Seen<V>> seen = byKey.get(key);
    if (seen == null) {
      return List.of();
    }
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  /** Sum of a measure over what was read for a sequence. */
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
