package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class DeadLettersTest {

  @Test
  void shouldKeepTheRecordAndSayWhyAndWhereFrom() {
    final ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("in", 3, 42, bytes("k"), bytes("v"));

    final ProducerRecord<byte[], byte[]> letter = DeadLetters.of("dlq", record, new SerializationException("bad"));

    assertThat(letter.topic()).isEqualTo("dlq");
    assertThat(letter.key()).isEqualTo(bytes("k"));
    assertThat(letter.value()).isEqualTo(bytes("v"));
    assertThat(header(letter, DeadLetters.MESSAGE)).isEqualTo("bad");
    assertThat(header(letter, DeadLetters.TOPIC)).isEqualTo("in");
    assertThat(header(letter, DeadLetters.PARTITION)).isEqualTo("3");
    assertThat(header(letter, DeadLetters.OFFSET)).isEqualTo("42");
    assertThat(letter.headers().lastHeader(DeadLetters.VALUE_BYTES)).isNull();
    assertThat(record.headers().toArray()).as("the consumed record's headers").isEmpty();
  }

  @Test
  void shouldCutAValueTooLargeToBeWrittenWithItsHeadersAndSayHowLargeItWas() {
    final byte[] large = new byte[1_048_000];
    final ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("in", 0, 7, bytes("k"), large);

    final ProducerRecord<byte[], byte[]> letter = DeadLetters.of("dlq", record, new SerializationException("bad"));

    assertThat(letter.value()).hasSize(DeadLetters.MAX_VALUE_BYTES);
    assertThat(header(letter, DeadLetters.VALUE_BYTES)).isEqualTo("1048000");
    assertThat(header(letter, DeadLetters.OFFSET)).isEqualTo("7");
  }

  private static byte[] bytes(final String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String header(final ProducerRecord<byte[], byte[]> letter, final String name) {
    return new String(letter.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
