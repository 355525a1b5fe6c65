package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
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

  private DeadLetters() {
  }

  /** The dead letter of a consumed record that could not be used. */
  public static ProducerRecord<byte[], byte[]> of(final String deadLetterTopic,
      final ConsumerRecord<byte[], byte[]> record, final Exception reason) {
    requireNonNull(reason, "reason");
    return letter(new ProducerRecord<>(deadLetterTopic, null, record.key(), record.value(), record.headers()),
        reason, record.topic(), record.partition(), record.offset());
  }

  /** The dead letter of a record a Kafka Streams processor rejected. */
  public static ProducerRecord<byte[], byte[]> of(final String deadLetterTopic, final ErrorHandlerContext context,
      final Exception reason) {
    requireNonNull(reason, "reason");
    return letter(new ProducerRecord<>(deadLetterTopic, null, context.sourceRawKey(), context.sourceRawValue(),
        new RecordHeaders(context.headers().toArray())), reason, context.topic(), context.partition(),
        context.offset());
  }

  private static ProducerRecord<byte[], byte[]> letter(final ProducerRecord<byte[], byte[]> letter,
      final Exception reason, final String topic, final int partition, final long offset) {
    final Headers headers = letter.headers();
    headers.add(EXCEPTION, utf8(reason.getClass().getName()));
    headers.add(MESSAGE, utf8(String.valueOf(reason.getMessage())));
    headers.add(TOPIC, utf8(topic));
    headers.add(PARTITION, utf8(String.valueOf(partition)));
    headers.add(OFFSET, utf8(String.valueOf(offset)));
    return letter;
  }

  private static byte[] utf8(final String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
