package io.zerolayer.bench;

import static io.zerolayer.bench.FiguresFixture.figures;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchGoalsTest {

  @Test
  void shouldMeetEveryGoalWhenZerolayerBeatsEachReferenceFigure() {
    final Map<FigureRow, String> goals = BenchGoals.check(List.of(
        figures("zerolayer", 1_000, 0.0002, 1_100, 0, 0.96, 1.1),
        figures("round-robin", 4_000, 0.01, 0, 3, 0.0, 3.0),
        figures("p2c", 1_200, 0.001, 0, 0, 0.2, 2.0)));

    assertThat(goals.get(FigureRow.LATENCY_P99))
        .isEqualTo("<= 0.25x round-robin (<= 1,000 ms) met; lowest of all: met");
    assertThat(goals.get(FigureRow.ERROR_RATE)).isEqualTo("<= 0.03 %: met");
    assertThat(goals.get(FigureRow.OOM_OFF)).isEqualTo("<= 1,200 ms with 0 failed: met");
    assertThat(goals.get(FigureRow.ZONE_MOVED)).isEqualTo(">= 95 %: met");
    assertThat(goals.get(FigureRow.COLD_START)).isEqualTo("<= 1.2x: met");
  }

  @Test
  void shouldNameThePolicyWithALowerP99AndFailEachGoalJustMissed() {
    final Map<FigureRow, String> goals = BenchGoals.check(List.of(
        figures("zerolayer", 1_001, 0.00031, 1_100, 1, 0.949, 1.21),
        figures("round-robin", 4_000, 0.01, 0, 3, 0.0, 3.0),
        figures("epp", 1_001, 0.001, 0, 0, 0.2, 2.0),
        figures("p2c", 900, 0.001, 0, 0, 0.2, 2.0)));

    assertThat(goals.get(FigureRow.LATENCY_P99))
        .isEqualTo("<= 0.25x round-robin (<= 1,000 ms) not met; lowest of all: not met (p2c 900 ms)");
    assertThat(goals.get(FigureRow.ERROR_RATE)).isEqualTo("<= 0.03 %: not met");
    assertThat(goals.get(FigureRow.OOM_OFF)).isEqualTo("<= 1,200 ms with 0 failed: not met");
    assertThat(goals.get(FigureRow.ZONE_MOVED)).isEqualTo(">= 95 %: not met");
    assertThat(goals.get(FigureRow.COLD_START)).isEqualTo("<= 1.2x: not met");
  }

  @Test
  void shouldHoldZerolayerToRoundRobinWithoutCutOverWhenThatControlGroupRan() {
    final Map<FigureRow, String> goals = BenchGoals.check(List.of(
        figures("zerolayer", 1_000, 0.0, 0, 0, 1.0, 1.0),
        figures("round-robin", 2_000, 0.0, 0, 0, 0.0, 1.0),
        figures("round-robin/no-cutover", 8_000, 0.01, 0, 3, 0.0, 3.0)));

    assertThat(goals.get(FigureRow.LATENCY_P99))
        .isEqualTo("<= 0.25x round-robin/no-cutover (<= 2,000 ms) met; lowest of all: met");
  }

  @Test
  void shouldSayNotApplicableWhenAFigureOrThePolicyIsMissing() {
    final PolicyFigures ours = figures("zerolayer", 1_000, 0.0, 0, 0, 1.0, 1.0);
    final PolicyFigures unmeasured = new PolicyFigures("zerolayer", ours.requests(), ours.oom(),
        Figure.na("no zone-loss fault"), ours.coldStart(), ours.cutover(), ours.predictionError());

    assertThat(BenchGoals.check(List.of(unmeasured)).get(FigureRow.ZONE_MOVED)).isEqualTo(">= 95 %: n/a");
    assertThat(BenchGoals.check(List.of(unmeasured)).get(FigureRow.LATENCY_P99))
        .isEqualTo("<= 0.25x round-robin/no-cutover n/a (no round-robin/no-cutover P99); lowest of all: met");
    assertThat(BenchGoals.check(List.of(figures("p2c", 1, 0, 0, 0, 1, 1))))
        .containsExactly(Map.entry(FigureRow.LATENCY_P99, "n/a: zerolayer was not run"));
  }
}
