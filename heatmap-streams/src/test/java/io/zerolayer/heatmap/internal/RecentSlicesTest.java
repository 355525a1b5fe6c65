package io.zerolayer.heatmap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.TelemetrySlice;
import io.zerolayer.contract.serde.ContractSerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The decoded slices kept in front of the slices store: written through, read from the store once. */
class RecentSlicesTest {

  private static final long ADVANCE = 200;
  private static final long SIZE = 1_000;

  private WindowStore<String, TelemetrySlice> store;
  private RecentSlices recent;

  @BeforeEach
  void setUp() {
    store = Stores.windowStoreBuilder(Stores.inMemoryWindowStore("slices", Duration.ofMinutes(2),
        Duration.ofMillis(ADVANCE), false), Serdes.String(), ContractSerdes.inMemory().value(TelemetrySlice.class))
        .withLoggingDisabled().build();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    recent = new RecentSlices(store, SIZE);
  }

  @Test
  void shouldContinueASliceTheStoreHeldBeforeTheTaskStarted() {
    // Given a slice an earlier run of the task wrote
    store.put("gpu-1", slice(1.0), 0);

    // When a sample of the same slice arrives
    recent.append("gpu-1", 0, sample(2.0));

    // Then the store and the memory both hold the two samples, in order
    assertThat(firsts(TelemetryWindows.split(store.fetch("gpu-1", 0)))).containsExactly(1.0, 2.0);
    assertThat(firsts(recent.samples("gpu-1", 0))).containsExactly(1.0, 2.0);
  }

  @Test
  void shouldWriteEverySampleThroughToTheStore() {
    recent.append("gpu-1", 0, sample(1.0));
    recent.append("gpu-1", 0, sample(2.0));
    recent.append("gpu-1", ADVANCE, sample(3.0));

    assertThat(firsts(TelemetryWindows.split(store.fetch("gpu-1", 0)))).containsExactly(1.0, 2.0);
    assertThat(firsts(TelemetryWindows.split(store.fetch("gpu-1", ADVANCE)))).containsExactly(3.0);
    assertThat(recent.samples("gpu-2", 0)).as("another instance").isEmpty();
  }

  @Test
  void shouldKeepOnlyTheLatestWindowInMemoryAndReadOlderSlicesFromTheStoreAgain() {
    recent.append("gpu-1", 0, sample(1.0));
    // A sample more than one window later: the first slice leaves memory, not the store
    recent.append("gpu-1", SIZE + ADVANCE, sample(2.0));
    store.put("gpu-1", slice(9.0), 0);

    assertThat(firsts(recent.samples("gpu-1", 0))).as("read from the store again").containsExactly(9.0);
  }

  @Test
  void shouldForgetAnInstanceAndReadItsSlicesFromTheStoreAgain() {
    recent.append("gpu-1", 0, sample(1.0));
    store.put("gpu-1", slice(9.0), 0);

    assertThat(firsts(recent.samples("gpu-1", 0))).as("memory, written through").containsExactly(1.0);
    recent.forget("gpu-1");
    assertThat(firsts(recent.samples("gpu-1", 0))).containsExactly(9.0);
  }

  private static double[] sample(final double first) {
    final double[] values = new double[Metric.COUNT];
    values[0] = first;
    return values;
  }

  private static TelemetrySlice slice(final double first) {
    final List<Double> values = new ArrayList<>(Collections.nCopies(Metric.COUNT, 0.0));
    values.set(0, first);
    return new TelemetrySlice(1, values);
  }

  private static List<Double> firsts(final List<double[]> samples) {
    return samples.stream().map(values -> values[0]).toList();
  }
}
