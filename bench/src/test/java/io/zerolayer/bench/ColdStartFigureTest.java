package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.fleet.fault.FaultKind;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColdStartFigureTest {

  @Test
  void shouldCompareTheFirstNewRequestOnTheColdInstanceWithItsWarmNeighbours() {
    // Given gpu-2 restarting cold at 30 s; a cut-over resumes on it first, then a new request at 31 s
    final RunFixture fixture = new RunFixture()
        .fault(FaultKind.COLD, "gpu-2", 30_000, "gpu-2")
        .dispatch("resumed", 2, "gpu-2", 30_100)
        .dispatch("first", 1, "gpu-2", 31_000)
        .completed("first", 31_000, 1_500, "gpu-2")
        .completed("warm-1", 29_000, 400, "gpu-0")
        .completed("warm-2", 32_000, 500, "gpu-1")
        .completed("warm-3", 33_000, 600, "gpu-0")
        .completed("far-away", 50_000, 9_000, "gpu-0")
        .completed("second-on-cold", 31_500, 9_000, "gpu-2");

    final Figure cold = ColdStartFigure.of(fixture.run("p"));

    assertThat(cold.value()).hasValue(3.0);
    assertThat(cold.text()).isEqualTo("1,500 ms (12 tokens) vs warm median 500 ms of 3 requests (3.00x)");
  }

  @Test
  void shouldCompareWithWarmRequestsOfAboutItsLengthWhenThereAreEnough() {
    // Given a first request of 30 tokens, five warm ones of 27-33 tokens and two short ones
    final RunFixture fixture = new RunFixture()
        .fault(FaultKind.COLD, "gpu-2", 30_000, "gpu-2")
        .dispatch("first", 1, "gpu-2", 31_000)
        .completed("first", 31_000, 1_200, "gpu-2", 10)
        .completed("short-1", 31_000, 100, "gpu-0")
        .completed("short-2", 31_000, 100, "gpu-1");
    for (int i = 0; i < 5; i++) {
      fixture.completed("like-" + i, 32_000, 1_000 + 100 * i, "gpu-" + (i % 2), 9 + i % 3);
    }

    final Figure cold = ColdStartFigure.of(fixture.run("p"));

    assertThat(cold.value()).hasValue(1.0);
    assertThat(cold.text()).isEqualTo("1,200 ms (30 tokens) vs warm median 1,200 ms of 5 requests of about its"
        + " length (1.00x); warm median of all 7: 1,100 ms (1.09x)");
  }

  @Test
  void shouldCompareARareLengthWithRequestsOfItsLengthFromTheWholeRun() {
    // Given a first request of 300 tokens: near it one warm request of its length, four more later in the run
    final RunFixture fixture = new RunFixture()
        .fault(FaultKind.COLD, "gpu-2", 30_000, "gpu-2")
        .dispatch("first", 1, "gpu-2", 31_000)
        .completed("first", 31_000, 4_400, "gpu-2", 100)
        .completed("short", 31_000, 300, "gpu-0")
        .completed("long-near", 32_000, 4_000, "gpu-1", 100);
    for (int i = 0; i < 4; i++) {
      fixture.completed("long-later-" + i, 60_000 + 1_000 * i, 3_800 + 200 * i, "gpu-" + (i % 2), 95 + 5 * i);
    }

    final Figure cold = ColdStartFigure.of(fixture.run("p"));

    assertThat(cold.value()).hasValue(1.1);
    assertThat(cold.text()).isEqualTo("4,400 ms (300 tokens) vs warm median 4,000 ms of 5 requests of about its"
        + " length in the whole run (1.10x); warm median of all 2: 300 ms (14.67x)");
  }

  @Test
  void shouldFailTheFigureWhenTheFirstRequestDidNotComplete() {
    final RunFixture fixture = new RunFixture()
        .fault(FaultKind.COLD, "gpu-2", 30_000, "gpu-2")
        .dispatch("first", 1, "gpu-2", 31_000)
        .outcome("first", Status.TIMED_OUT, 31_000, 61_000, List.of())
        .completed("warm", 32_000, 500, "gpu-1");

    final Figure cold = ColdStartFigure.of(fixture.run("p"));

    assertThat(cold.value()).hasValue(Double.POSITIVE_INFINITY);
    assertThat(cold.text()).isEqualTo("first request timed out; warm median 500 ms");
  }

  @Test
  void shouldBeNotApplicableWithoutAColdStart() {
    assertThat(ColdStartFigure.of(new RunFixture().run("p")).text()).isEqualTo("n/a: no cold start");
  }
}
