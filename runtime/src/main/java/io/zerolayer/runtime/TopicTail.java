package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows every partition of a topic from its end as it was at start, handing each value to a
 * consumer on one thread, in each partition's order: for a process that needs what happens from
 * now on, not what happened before. A tombstone or an unreadable record goes to the dead-letter
 * topic with the reason; while the schema registry is down a record is read again. An error that
 * stops the reader is logged; the process goes on without what it fed.
 *
 * @param <V> the record values
 */
public final class TopicTail<V> implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TopicTail.class);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final ValueReader<V> values;
  private final Consumer<V> sink;
  private final String topic;
  private final Thread reader;
  private volatile boolean running = true;

  /**
   * @param topic the topic's name
   * @param values reads its values
   * @param sink takes each value, on the reader's thread
   * @param name names the reader thread and the log lines
   */
  public TopicTail(final ClusterSettings cluster, final String topic, final Deserializer<V> values,
      final Consumer<V> sink, final String name) {
    this.topic = requireNonNull(topic, "topic");
    this.sink = requireNonNull(sink, "sink");
    this.values = new ValueReader<>(cluster, values);
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    reader = new Thread(this::read, requireNonNull(name, "name"));
    reader.setDaemon(true);
    reader.start();
  }

  private void read() {
    try {
      final List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      // Fixes the start now: what is written from here on is read, however late the first poll.
      partitions.forEach(consumer::position);
      while (running) {
        final var records = consumer.poll(Duration.ofMillis(100));
        for (final TopicPartition partition : records.partitions()) {
          for (final ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
            if (!apply(record)) {
              consumer.seek(partition, record.offset());
              break;
            }
          }
        }
      }
    } catch (final WakeupException e) {
      // closing
    } catch (final RuntimeException e) {
      LOG.error("{} stopped reading {}: {}; what it fed goes stale until the process restarts", reader.getName(),
          topic, e.toString(), e);
    } finally {
      consumer.close();
    }
  }

  /** Hands one record on; false when the registry is down and the record must be read again. */
  private boolean apply(final ConsumerRecord<byte[], byte[]> record) {
    if (record.value() == null) {
      values.deadLetter(record, "record without a value (a tombstone): every record of " + topic + " needs one");
      return true;
    }
    if (record.key() == null) {
      values.deadLetter(record, "record without a key: every record of " + topic + " needs one");
      return true;
    }
    final ValueReader.Read<V> read = values.read(record);
    if (read.value() != null) {
      sink.accept(read.value());
    }
    return !read.again();
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
