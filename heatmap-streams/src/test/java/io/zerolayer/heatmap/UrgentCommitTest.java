package io.zerolayer.heatmap;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceStatus;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.avro.LatencyFit;
import io.zerolayer.contract.avro.TelemetryHistory;
import io.zerolayer.contract.avro.TelemetrySlice;
import io.zerolayer.contract.avro.ZoneStatus;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.heatmap.internal.HeatmapOutputs;
import io.zerolayer.heatmap.internal.ScoreInstancesProcessor;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Routers read the scores committed only, so a row they must act on at once is committed at once
 * rather than at the next commit interval; ordinary rows wait for it.
 */
class UrgentCommitTest {

  private final HeatmapConfig config = new HeatmapConfig(Map.of());
  private final MockProcessorContext<String, Object> context = new MockProcessorContext<>();
  private ScoreInstancesProcessor processor;
  private long nowMs = HeatmapDriver.START.toEpochMilli();

  @BeforeEach
  void setUp() {
    add(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(HeatmapTopology.INSTANCE_STATE_STORE),
        Serdes.String(), serdes().value(InstanceStatus.class)).withLoggingDisabled().build());
    add(Stores.windowStoreBuilder(Stores.inMemoryWindowStore(HeatmapTopology.TELEMETRY_WINDOW_STORE,
            config.millis(HeatmapConfig.WINDOW_RETENTION_MS),
            config.millis(HeatmapConfig.WINDOW_ADVANCE_MS), false),
        Serdes.String(), serdes().value(TelemetrySlice.class)).withLoggingDisabled().build());
    add(Stores.windowStoreBuilder(Stores.inMemoryWindowStore(HeatmapTopology.TELEMETRY_HISTORY_STORE,
            config.millis(HeatmapConfig.HISTORY_RETENTION_MS), config.millis(HeatmapConfig.HISTORY_WINDOW_MS), false),
        Serdes.String(), serdes().value(TelemetryHistory.class)).withLoggingDisabled().build());
    add(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(HeatmapTopology.LATENCY_MODEL_STORE),
        Serdes.String(), serdes().value(LatencyFit.class)).withLoggingDisabled().build());
    add(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(HeatmapTopology.ZONE_STATE_STORE),
        Serdes.String(), serdes().value(ZoneStatus.class)).withLoggingDisabled().build());
    add(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(HeatmapTopology.INSTANCE_SCORES_GLOBAL_STORE),
        Serdes.String(), serdes().value(InstanceScore.class)).withLoggingDisabled().build());
    context.setCurrentSystemTimeMs(nowMs);
    processor = new ScoreInstancesProcessor(HeatmapTopology.STORES, HeatmapTopology.settings(config, 1),
        HeatmapTopology.fitter(config), HeatmapTopology.decodeFitter(config),
        DistributionSummary.builder("emit.lag").register(new SimpleMeterRegistry()));
    processor.init(context);
  }

  @Test
  void shouldCommitAtOnceWhenAnInstanceTurnsNetworkDegraded() {
    // Given an instance reporting healthy samples for a second
    sample(0.001, 20);
    assertThat(context.committed()).as("healthy samples ask for no commit").isFalse();

    // When its retransmit rate stays above 8 % in every sample until it counts as degraded
    sample(0.15, 3);
    assertThat(context.committed()).as("before the sustained-loss time").isFalse();
    sample(0.15, 1);

    // Then the degraded row went out and the task asked for a commit with it
    final List<InstanceScore> rows = rows();
    assertThat(rows).isNotEmpty();
    assertThat(rows.get(rows.size() - 1).getNetworkDegraded()).isTrue();
    assertThat(context.committed()).isTrue();
  }

  @Test
  void shouldLeaveOrdinaryRowsToTheCommitInterval() {
    sample(0.001, 20);
    // Every scheduled emission publishes rows, none of them urgent.
    context.scheduledPunctuators().forEach(p -> p.getPunctuator().punctuate(nowMs));

    assertThat(rows()).isNotEmpty();
    assertThat(context.committed()).isFalse();
  }

  private void sample(final double retransmits, final int count) {
    for (int i = 0; i < count; i++) {
      final InstanceTelemetry sample = HeatmapDriver.healthy("gpu-1", nowMs).setTcpRetransmitRate(retransmits)
          .build();
      processor.process(new Record<>("gpu-1", sample, nowMs));
      nowMs += HeatmapDriver.SAMPLE_MS;
      context.setCurrentSystemTimeMs(nowMs);
    }
  }

  private List<InstanceScore> rows() {
    return context.forwarded(HeatmapOutputs.WRITE_SCORES).stream()
        .map(forwarded -> (InstanceScore) forwarded.record().value()).toList();
  }

  /** One registry per store: the mock context names every store's changelog topic alike. */
  private static ContractSerdes serdes() {
    return ContractSerdes.inMemory();
  }

  private void add(final StateStore store) {
    store.init(context.getStateStoreContext(), store);
    context.addStateStore(store);
  }
}
