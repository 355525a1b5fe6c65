package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler.Result;
import org.junit.jupiter.api.Test;

class RetryOnRegistryOutageTest {

  private final ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("t", 0, 7L, new byte[0], new byte[0]);

  @Test
  void shouldFailTheTaskSoTheRecordIsReadAgainWhenTheRegistryIsDown() {
    final Exception outage = new SerializationException("wrapped",
        new SchemaRegistryUnavailableException("registry down", null));

    assertThat(new RetryOnRegistryOutage().handleError(null, record, outage).result()).isEqualTo(Result.FAIL);
  }
}
