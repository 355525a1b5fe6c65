package io.zerolayer.heatmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.TelemetryHistory;
import io.zerolayer.contract.avro.TelemetrySlice;
import io.zerolayer.heatmap.internal.Metric;
import io.zerolayer.heatmap.internal.TelemetryWindows;
import io.zerolayer.heatmap.internal.WindowStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** History windows: closed ones folded once into t-digests, the open one exact from its slices. */
class TelemetryHistoryTest {

  private static final long MINUTE = 60_000;

  private final HeatmapDriver heatmap = new HeatmapDriver(Map.of());

  @AfterEach
  void tearDown() {
    heatmap.close();
  }

  @Test
  void shouldKeepMeanMaxAndP95PerMetricForClosedAndOpenHistoryWindows() {
    // stream time 0-60 s: GPU utilisation cycles through 0.00 .. 0.99; 60-70 s: a steady 0.5
    final long[] tick = {0};
    heatmap.feed("gpu-1", sample -> sample.setGpuUtilization((tick[0]++ % 100) / 100.0), Duration.ofMillis(MINUTE));
    heatmap.feed("gpu-1", sample -> sample.setGpuUtilization(0.5), Duration.ofSeconds(10));

    final long start = HeatmapDriver.START.toEpochMilli();
    final WindowStore<String, TelemetryHistory> closed = heatmap.driver.getWindowStore(
        HeatmapTopology.TELEMETRY_HISTORY_STORE);
    final WindowStore<String, TelemetrySlice> slices = heatmap.driver.getWindowStore(
        HeatmapTopology.TELEMETRY_WINDOW_STORE);
    final List<WindowStats> windows = TelemetryWindows.history(closed, slices, "gpu-1", start, start + MINUTE, MINUTE);

    assertThat(closed.fetch("gpu-1", start)).as("the first minute, folded once it closed").isNotNull();
    assertThat(closed.fetch("gpu-1", start + MINUTE)).as("the open minute, not folded yet").isNull();
    assertThat(windows).hasSize(2);
    final WindowStats first = windows.get(0);
    assertThat(first.samples()).isEqualTo(1_200);
    assertThat(first.mean(Metric.GPU_UTILIZATION)).isCloseTo(0.495, within(1e-9));
    assertThat(first.max(Metric.GPU_UTILIZATION)).isEqualTo(0.99);
    assertThat(first.p95(Metric.GPU_UTILIZATION)).isCloseTo(0.945, within(0.01));
    final WindowStats open = windows.get(1);
    assertThat(open.samples()).isEqualTo(200);
    assertThat(open.p95(Metric.GPU_UTILIZATION)).isEqualTo(0.5);
  }

  @Test
  void shouldFoldTheLastMinuteOfAnInstanceThatWentSilent() {
    heatmap.feed("gpu-1", sample -> sample.setGpuUtilization(0.4), Duration.ofSeconds(30));

    // silent until the wall clock is past the end of its last minute
    for (int i = 0; i < 160; i++) {
      heatmap.advance(Duration.ofMillis(200));
    }

    final WindowStore<String, TelemetryHistory> closed = heatmap.driver.getWindowStore(
        HeatmapTopology.TELEMETRY_HISTORY_STORE);
    final TelemetryHistory minute = closed.fetch("gpu-1", HeatmapDriver.START.toEpochMilli());
    assertThat(minute).isNotNull();
    assertThat(minute.getSamples()).isEqualTo(600);
  }

  @Test
  void shouldForgetAnInstanceSilentForLongerThanItsHistoryIsKept() {
    try (HeatmapDriver brief = new HeatmapDriver(Map.of(HeatmapConfig.FORGET_AFTER_MS, 5_000L))) {
      brief.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
      brief.feed("gpu-2", sample -> sample, Duration.ofMillis(200));
      brief.scores.readRecordsToList();

      for (int i = 0; i < 30; i++) {
        brief.advance(Duration.ofMillis(200));
      }

      final var records = brief.scores.readRecordsToList();
      assertThat(records).last().satisfies(record -> assertThat(record.value()).isNull());
      assertThat(records).filteredOn(record -> record.value() == null).extracting(record -> record.key())
          .containsExactlyInAnyOrder("gpu-1", "gpu-2");
      final org.apache.kafka.streams.state.KeyValueStore<String, ?> states =
          brief.driver.getKeyValueStore(HeatmapTopology.INSTANCE_STATE_STORE);
      assertThat(states.get("gpu-1")).isNull();
      assertThat(states.get("gpu-2")).isNull();
    }
  }

}
