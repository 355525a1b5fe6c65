package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

class StateStoreTagsTest {

  @Test
  void shouldExportTheSameStateMeterOfAKeyValueAndAWindowStore() {
    // Given an app's registry, and one meter name as Kafka Streams reports it for two store types
    try (MetricsServer server = new MetricsServer("test", http -> { })) {
      final PrometheusMeterRegistry registry = server.registry();
      Gauge.builder("kafka.stream.state.put.rate", () -> 1.0)
          .tags(Tags.of("rocksdb-window-state-id", "history-store", "task-id", "0_1")).register(registry);

      // When the second type's meter registers
      Gauge.builder("kafka.stream.state.put.rate", () -> 2.0)
          .tags(Tags.of("rocksdb-state-id", "latency-model-store", "task-id", "0_1")).register(registry);

      // Then both are exported, under one set of tag keys
      final String scrape = registry.scrape();
      assertThat(scrape).contains("state_id=\"history-store\"", "store_type=\"rocksdb-window\"",
          "state_id=\"latency-model-store\"", "store_type=\"rocksdb\"");
    }
  }

  @Test
  void shouldLeaveOtherMetersAlone() {
    try (MetricsServer server = new MetricsServer("test", http -> { })) {
      Gauge.builder("kafka.stream.thread.poll.rate", () -> 1.0).tags(Tags.of("thread-id", "t-1"))
          .register(server.registry());

      assertThat(server.registry().scrape()).contains("thread_id=\"t-1\"").doesNotContain("state_id");
    }
  }
}
