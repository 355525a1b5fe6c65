package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/**
 * Dead-letter records: the original key and value bytes, with headers that say why and where
 * from. The header names are the ones Kafka Streams' own dead-letter queue writes, so one
 * reader understands the dead letters of every Zerolayer app.
 */
public final class DeadLetters {

  /** Class name of the exception that rejected the record. */
  public static final String EXCEPTION = "__streams.errors.exception";
  /** The reason, for a person. */
  public static final String MESSAGE = "__streams.errors.message";
  public static final String TOPIC = "__streams.errors.topic";
  public static final String PARTITION = "__streams.errors.partition";
  public static final String OFFSET = "__streams.errors.offset";
  /**
   * The original value's size in bytes, on a dead letter that holds only its first
   * {@value #MAX_VALUE_BYTES}: a value near the broker's limit plus these headers would be over it,
   * and the letter could not be written. The whole record stays at its topic, partition and offset.
   */
  public static final String VALUE_BYTES = "__zerolayer.value.bytes";
  /** The most of a value a dead letter holds. */
  public static final int MAX_VALUE_BYTES = 512 * 1024;

  private DeadLetters() {
  }

  /**
   * The dead-letter topic a Kafka Streams error handler was configured with
   * ({@code errors.dead.letter.queue.topic.name}).
   *
   * @throws IllegalArgumentException when there is none
   */
  public static String topicOf(final Map<String, ?> handlerConfigs, final Class<?> handler) {
    final Object topic = handlerConfigs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
    if (topic == null) {
      throw new IllegalArgumentException(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG
          + " must name the dead-letter topic for " + handler.getSimpleName());
    }
    return topic.toString();
  }

  /** The dead letter of a consumed record that could not be used. */
  public static ProducerRecord<byte[], byte[]> of(final String deadLetterTopic,
      final ConsumerRecord<byte[], byte[]> record, final Exception reason) {
    requireNonNull(reason, "reason");
    return letter(deadLetterTopic, record.key(), record.value(), record.headers(), reason, record.topic(),
        record.partition(), record.offset());
  }

  /** The dead letter of a record a Kafka Streams processor rejected. */
  public static ProducerRecord<byte[], byte[]> of(final String deadLetterTopic, final ErrorHandlerContext context,
      final Exception reason) {
    requireNonNull(reason, "reason");
    return letter(deadLetterTopic, context.sourceRawKey(), context.sourceRawValue(), context.headers(), reason,
        context.topic(), context.partition(), context.offset());
  }

  private static ProducerRecord<byte[], byte[]> letter(final String deadLetterTopic, final byte[] key,
      final byte[] value, final Headers original, final Exception reason, final String topic, final int partition,
      final long offset) {
    final Headers headers = new RecordHeaders(original.toArray());
    final boolean cut = value != null && value.length > MAX_VALUE_BYTES;
    if (cut) {
      headers.add(VALUE_BYTES, utf8(String.valueOf(value.length)));
    }
    headers.add(EXCEPTION, utf8(reason.getClass().getName()));
    headers.add(MESSAGE, utf8(String.valueOf(reason.getMessage())));
    headers.add(TOPIC, utf8(topic));
    headers.add(PARTITION, utf8(String.valueOf(partition)));
    headers.add(OFFSET, utf8(String.valueOf(offset)));
    return new ProducerRecord<>(deadLetterTopic, null, key, cut ? Arrays.copyOf(value, MAX_VALUE_BYTES) : value,
        headers);
  }

  private static byte[] utf8(final String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
