package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler.Result;
import org.junit.jupiter.api.Test;

class RetryOnRegistryOutageTest {

  private final ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("t", 0, 7L, new byte[0], new byte[0]);
  private final RetryOnRegistryOutage handler = new RetryOnRegistryOutage();

  RetryOnRegistryOutageTest() {
    handler.configure(Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "dlq"));
  }

  @Test
  void shouldFailTheTaskSoTheRecordIsReadAgainWhenTheRegistryIsDown() {
    final Exception outage = new SerializationException("wrapped",
        new SchemaRegistryUnavailableException("registry down", null));

    assertThat(handler.handleError(null, record, outage).result()).isEqualTo(Result.FAIL);
  }

  @Test
  void shouldDeadLetterAnUnreadableRecordWithTheReasonCuttingAValueTooLargeToWrite() {
    final ConsumerRecord<byte[], byte[]> large = new ConsumerRecord<>("t", 2, 9L, "k".getBytes(StandardCharsets.UTF_8),
        new byte[1_048_000]);

    final DeserializationExceptionHandler.Response response = handler.handleError(null, large,
        new SerializationException("not avro"));

    assertThat(response.result()).isEqualTo(Result.RESUME);
    assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(letter -> {
      final ProducerRecord<byte[], byte[]> dead = letter;
      assertThat(dead.topic()).isEqualTo("dlq");
      assertThat(dead.value()).hasSize(DeadLetters.MAX_VALUE_BYTES);
      assertThat(new String(dead.headers().lastHeader(DeadLetters.MESSAGE).value(), StandardCharsets.UTF_8))
          .isEqualTo("not avro");
    });
  }

  @Test
  void shouldRefuseToStartWithoutADeadLetterTopic() {
    assertThatThrownBy(() -> new RetryOnRegistryOutage().configure(Map.of()))
        .hasMessageContaining(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
  }
}
