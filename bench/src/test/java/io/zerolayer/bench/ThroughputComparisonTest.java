package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThroughputComparisonTest {

  @Test
  void shouldRateARunByItsConsumeTimeOnly() {
    final ThroughputRun run = new ThroughputRun("heatmap", 1, 50_000, Duration.ofSeconds(9), Duration.ofMillis(2500), 0);

    assertThat(run.recordsPerSecond()).isCloseTo(20_000, within(1e-6));
  }

  @Test
  void shouldCompareTheMediansOfAlternatingRuns() {
    final ThroughputComparison comparison = new ThroughputComparison(List.of(
        run("pass-through", 1, 1000), run("heatmap", 1, 4000),
        run("pass-through", 2, 2000), run("heatmap", 2, 5000),
        run("pass-through", 3, 1500), run("heatmap", 3, 4000)));

    // pass-through: 100k/s, 50k/s, 66.7k/s -> median 66.7k/s; heatmap: 25k/s, 20k/s, 25k/s -> 25k/s.
    assertThat(comparison.medianRate("pass-through")).isCloseTo(100_000.0 / 1.5, within(1e-6));
    assertThat(comparison.medianRate("heatmap")).isCloseTo(25_000, within(1e-6));
    assertThat(comparison.ratio("heatmap", "pass-through")).isCloseTo(0.375, within(1e-9));
  }

  @Test
  void shouldTakeTheMeanOfTheMiddleTwoForAnEvenCount() {
    final ThroughputComparison comparison = new ThroughputComparison(List.of(
        run("heatmap", 1, 1000), run("heatmap", 2, 4000)));

    assertThat(comparison.medianRate("heatmap")).isCloseTo((100_000 + 25_000) / 2.0, within(1e-6));
  }

  @Test
  void shouldRefuseAMedianOfAnAppThatNeverRan() {
    assertThatThrownBy(() -> new ThroughputComparison(List.of(run("heatmap", 1, 1000))).medianRate("pass-through"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pass-through");
  }

  @Test
  void shouldRejectARunThatTookNoTime() {
    assertThatThrownBy(() -> new ThroughputRun("heatmap", 1, 10, Duration.ZERO, Duration.ZERO, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static ThroughputRun run(final String app, final int round, final long consumeMs) {
    return new ThroughputRun(app, round, 100_000, Duration.ofSeconds(1), Duration.ofMillis(consumeMs), 0);
  }
}
