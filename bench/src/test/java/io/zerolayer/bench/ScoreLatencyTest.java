package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.bench.ScoreLatency.ReadRow;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScoreLatencyTest {

  private static final long FROM = 10_000;
  private static final long TO = 13_000;

  @Test
  void shouldMeasureOnlyRowsWhoseSampleWasTakenInTheWindow() {
    final ScoreLatency latency = ScoreLatency.of(List.of(
        new ReadRow(9_950, 10_120),   // sampled during the warm-up: not measured
        new ReadRow(10_000, 10_180),
        new ReadRow(12_990, 13_240),  // sampled in the window, read after it: measured
        new ReadRow(13_000, 13_150)), // sampled after the window: not measured
        FROM, TO);

    assertThat(latency.latenciesMs()).containsExactly(180L, 250L);
  }

  @Test
  void shouldCountRowsByTheWholeSecondOfTheWindowTheyWereReadIn() {
    final ScoreLatency latency = ScoreLatency.of(List.of(
        new ReadRow(9_900, 9_999),    // read before the window
        new ReadRow(9_950, 10_000),   // second 0
        new ReadRow(10_500, 10_999),  // second 0
        new ReadRow(11_000, 11_200),  // second 1
        new ReadRow(12_800, 13_000)), // read after the window
        FROM, TO);

    assertThat(latency.rowsPerSecond()).containsExactly(2L, 1L, 0L);
  }

  @Test
  void shouldRejectAnEmptyWindow() {
    assertThatThrownBy(() -> ScoreLatency.of(List.of(), FROM, FROM)).isInstanceOf(IllegalArgumentException.class);
  }
}
