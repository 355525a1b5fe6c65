package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KeepLatestProcessorTest {

  private final AtomicInteger outages = new AtomicInteger();
  private final Deserializer<String> values = (topic, data) -> {
    if (outages.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new SchemaRegistryUnavailableException("registry answered 503", null);
    }
    final String text = new String(data, StandardCharsets.UTF_8);
    if (text.startsWith("garbage")) {
      throw new SerializationException("not a record");
    }
    return text;
  };
  private KeyValueStore<String, String> store;
  private KeepLatestProcessor<String> processor;

  @BeforeEach
  void setUp() {
    final MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
    store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("rows"), Serdes.String(), Serdes.String())
        .withLoggingDisabled().build();
    store.init(context.getStateStoreContext(), store);
    context.addStateStore(store);
    processor = new KeepLatestProcessor<>("rows", "scores", values);
    processor.init(context);
  }

  @Test
  void shouldKeepTheLatestValueAndRemoveItOnATombstone() {
    processor.process(record("gpu-1", "first"));
    processor.process(record("gpu-1", "second"));
    assertThat(store.get("gpu-1")).isEqualTo("second");

    processor.process(new Record<>("gpu-1", null, 0L));

    assertThat(store.get("gpu-1")).isNull();
  }

  @Test
  void shouldSkipAnUnreadableValueAndKeepTheLastGoodOne() {
    processor.process(record("gpu-1", "good"));

    processor.process(record("gpu-1", "garbage bytes"));

    assertThat(store.get("gpu-1")).isEqualTo("good");
  }

  @Test
  void shouldWaitForTheSchemaRegistryInsteadOfSkippingOrFailing() {
    outages.set(2);

    processor.process(record("gpu-1", "after the outage"));

    assertThat(store.get("gpu-1")).isEqualTo("after the outage");
    assertThat(outages).hasValue(0);
  }

  private static Record<String, byte[]> record(final String key, final String value) {
    return new Record<>(key, value.getBytes(StandardCharsets.UTF_8), 0L);
  }
}
