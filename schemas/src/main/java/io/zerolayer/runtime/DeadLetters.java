package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

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
    final ProducerRecord<byte[], byte[]> letter =
        new ProducerRecord<>(deadLetterTopic, null, record.key(), record.value(), record.headers());
    final Headers headers = letter.headers();
    headers.add(EXCEPTION, utf8(reason.getClass().getName()));
    headers.add(MESSAGE, utf8(String.valueOf(reason.getMessage())));
    headers.add(TOPIC, utf8(record.topic()));
    headers.add(PARTITION, utf8(String.valueOf(record.partition())));
    headers.add(OFFSET, utf8(String.valueOf(record.offset())));
    return letter;
  }

  private static byte[] utf8(final String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
