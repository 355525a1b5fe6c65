package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads record values for a process that follows a topic on its own thread: an unreadable record
 * goes to the dead-letter topic with the reason, and while the schema registry is down a record
 * is to be read again.
 *
 * @param <V> the record values
 */
final class ValueReader<V> implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ValueReader.class);

  /**
   * What reading one record gave.
   *
   * @param again the registry is down: seek back and read the record again later
   * @param value the value; null for a tombstone, a dead-lettered record, or one to read again
   */
  record Read<V>(boolean again, V value) {
  }

  private final Deserializer<V> values;
  private final KafkaProducer<byte[], byte[]> deadLetters;
  private final String deadLetterTopic;

  ValueReader(final ClusterSettings cluster, final Deserializer<V> values) {
    this.values = requireNonNull(values, "values");
    deadLetterTopic = cluster.catalogue().name(Topics.INFERENCE_DLQ);
    final Map<String, Object> dlq = new HashMap<>(cluster.clientProperties());
    dlq.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    deadLetters = new KafkaProducer<>(dlq, new ByteArraySerializer(), new ByteArraySerializer());
  }

  Read<V> read(final ConsumerRecord<byte[], byte[]> record) {
    try {
      return new Read<>(false, record.value() == null ? null : values.deserialize(record.topic(), record.value()));
    } catch (final SchemaRegistryUnavailableException e) {
      LOG.warn("Schema registry unavailable; reading {}-{}@{} again", record.topic(), record.partition(),
          record.offset());
      return new Read<>(true, null);
    } catch (final SerializationException e) {
      LOG.warn("Dead-lettering {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
      deadLetters.send(DeadLetters.of(deadLetterTopic, record, e));
      return new Read<>(false, null);
    }
  }

  /** Sends the record to the dead-letter topic, with why it cannot be used. */
  void deadLetter(final ConsumerRecord<byte[], byte[]> record, final String reason) {
    LOG.warn("Dead-lettering {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), reason);
    deadLetters.send(DeadLetters.of(deadLetterTopic, record, new InvalidRecordException(reason)));
  }

  @Override
  public void close() {
    deadLetters.close(Duration.ofSeconds(5));
  }
}
