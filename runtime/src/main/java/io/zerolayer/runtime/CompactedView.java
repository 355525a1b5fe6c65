package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A compacted topic with string keys, in memory. One thread reads it from the beginning; the view
 * is ready once it has read up to the end offsets it saw at start, and hands out immutable
 * snapshots, swapped once per poll. A tombstone removes its key; unreadable rows go to the
 * dead-letter topic; while the schema registry is down a row is read again.
 *
 * @param <V> the record values
 */
public final class CompactedView<V> implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CompactedView.class);

  /** A snapshot: every key's latest value, and how many polls changed it. */
  public record Snapshot<V>(Map<String, V> rows, long version) {
    public Snapshot {
      rows = Map.copyOf(rows);
    }
  }

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final ValueReader<V> values;
  private final String topic;
  private final AtomicReference<Snapshot<V>> current = new AtomicReference<>(new Snapshot<>(Map.of(), 0));
  private final CountDownLatch ready = new CountDownLatch(1);
  private final Thread reader;
  private volatile boolean running = true;
  private volatile boolean failed;

  /**
   * @param topic the topic's name
   * @param values reads its values
   * @param name names the reader thread and the log lines
   */
  public CompactedView(final ClusterSettings cluster, final String topic, final Deserializer<V> values,
      final String name) {
    this.topic = requireNonNull(topic, "topic");
    this.values = new ValueReader<>(cluster, values);
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    reader = new Thread(this::read, requireNonNull(name, "name"));
    reader.setDaemon(true);
    reader.start();
  }

  /** The latest snapshot. */
  public Snapshot<V> current() {
    return current.get();
  }

  /** Whether the view has caught up with the topic as it was at start. */
  public boolean isReady() {
    return ready.getCount() == 0;
  }

  /** Waits until ready; false on timeout. */
  public boolean awaitReady(final Duration timeout) throws InterruptedException {
    return ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Whether the view stopped reading on an error; its snapshot is then frozen. */
  public boolean failed() {
    return failed;
  }

  private void read() {
    try {
      final List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      final Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      while (running) {
        apply(consumer.poll(Duration.ofMillis(100)));
        if (!isReady() && caughtUp(end)) {
          ready.countDown();
          LOG.info("{} ready with {} rows of {}", reader.getName(), current.get().rows().size(), topic);
        }
      }
    } catch (final WakeupException e) {
      // closing
    } catch (final RuntimeException e) {
      LOG.error("{} stopped reading {}: {}", reader.getName(), topic, e.toString(), e);
      failed = true;
    } finally {
      consumer.close();
    }
  }

  private boolean caughtUp(final Map<TopicPartition, Long> end) {
    return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
  }

  private void apply(final ConsumerRecords<byte[], byte[]> records) {
    if (records.isEmpty()) {
      return;
    }
    final Snapshot<V> before = current.get();
    final Map<String, V> next = new HashMap<>(before.rows());
    for (final TopicPartition partition : records.partitions()) {
      for (final ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
        if (!apply(record, next)) {
          consumer.seek(partition, record.offset());
          break;
        }
      }
    }
    current.set(new Snapshot<>(next, before.version() + 1));
  }

  /** Applies one row; false when the registry is down and the row must be read again. */
  private boolean apply(final ConsumerRecord<byte[], byte[]> record, final Map<String, V> next) {
    if (record.key() == null) {
      return true;
    }
    final String key = new String(record.key(), StandardCharsets.UTF_8);
    final ValueReader.Read<V> read = values.read(record);
    if (read.again()) {
      return false;
    }
    if (read.value() != null) {
      next.put(key, read.value());
    } else if (record.value() == null) {
      next.remove(key);
    }
    return true;
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      reader.join(Duration.ofSeconds(5).toMillis());
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    values.close();
  }
}
