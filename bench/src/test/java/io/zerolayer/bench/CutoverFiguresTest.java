package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.fleet.load.ChunkArrival;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class CutoverFiguresTest {

  private static final long MS = 1_000_000L;

  @Test
  void shouldCountCompletedCutOversAndTimeTheClientsPauseBetweenAttempts() {
    // Given "a" resumed on gpu-1 with 450 ms between its last and first tokens, and "b" never finished
    final RunFixture fixture = new RunFixture()
        .dispatch("a", 1, "gpu-0", 1_000).dispatch("a", 2, "gpu-1", 2_100)
        .dispatch("b", 1, "gpu-0", 1_000).dispatch("b", 2, "gpu-1", 2_100)
        .dispatch("c", 1, "gpu-0", 1_000)
        .outcome("a", Status.COMPLETED, 1_000, 3_000, List.of(
            new ChunkArrival(1_500 * MS, 4, "gpu-0", 1),
            new ChunkArrival(1_750 * MS, 4, "gpu-0", 1),
            new ChunkArrival(1_800 * MS, 0, null, 1),
            new ChunkArrival(2_200 * MS, 4, "gpu-1", 2),
            new ChunkArrival(3_000 * MS, 4, "gpu-1", 2)))
        .outcome("b", Status.TIMED_OUT, 1_000, 31_000, List.of())
        .completed("c", 1_000, 500, "gpu-0");

    final CutoverFigures figures = CutoverFigures.of(fixture.run("p"));

    assertThat(figures.success().value()).hasValue(0.5);
    assertThat(figures.success().text()).isEqualTo("50.0 % of 2");
    assertThat(figures.pauseP50Ms().value()).hasValue(450);
    assertThat(figures.pauseP99Ms().value()).hasValue(450);
  }

  @Test
  void shouldGiveTheMedianPauseOfEachCauseOfTheFirstCutOver() {
    // Given "a" cut over after its worker failed (100 ms pause), "b" and "c" after silences (1,300 and 1,500 ms;
    // the nearest-rank median of two is the lower), and "d", silent before its first token, then slow (400 ms)
    final RunFixture fixture = new RunFixture()
        .dispatch("a", 2, "gpu-1", 1_000, "gpu-0 stalled (the worker reported the attempt failed: CUDA OOM); resumed")
        .dispatch("b", 2, "gpu-1", 1_000, "gpu-0 stalled (no token within 1200 ms); resumed")
        .dispatch("b", 3, "gpu-2", 1_000, "gpu-1 stalled (token rate down more than 40% for 3 checks); resumed")
        .dispatch("d", 2, "gpu-1", 1_000, "gpu-0 stalled (no first token and no word from the worker); resumed")
        .dispatch("d", 3, "gpu-2", 1_000, "gpu-1 stalled (token rate down more than 40% for 3 checks); resumed")
        .dispatch("c", 2, "gpu-1", 1_000, "gpu-0 stalled (no token within 1200 ms); resumed")
        .outcome("a", Status.COMPLETED, 0, 3_000, resumedAfter(100))
        .outcome("b", Status.COMPLETED, 0, 3_000, resumedAfter(1_300))
        .outcome("c", Status.COMPLETED, 0, 3_000, resumedAfter(1_500))
        .outcome("d", Status.COMPLETED, 0, 3_000, List.of(new ChunkArrival(500 * MS, 4, "gpu-1", 2),
            new ChunkArrival(900 * MS, 4, "gpu-2", 3)));

    final CutoverFigures figures = CutoverFigures.of(fixture.run("p"));

    assertThat(figures.pauseByCause().text()).isEqualTo("failed 100 (1); slow 400 (1); silent 1,300 (2)");
  }

  private static List<ChunkArrival> resumedAfter(final long pauseMs) {
    return List.of(new ChunkArrival(500 * MS, 4, "gpu-0", 1), new ChunkArrival((500 + pauseMs) * MS, 4, "gpu-1", 2));
  }

  @Test
  void shouldBeNotApplicableWithoutACutOver() {
    final CutoverFigures figures = CutoverFigures.of(new RunFixture().dispatch("c", 1, "gpu-0", 1)
        .completed("c", 1, 500, "gpu-0").run("p"));

    assertThat(figures.success().text()).isEqualTo("n/a: no cut-over");
  }
}
