package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.fleet.fault.FaultKind;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class OomFiguresTest {

  @Test
  void shouldTimeTrafficOffFromTheFaultToTheLastDispatchToTheInstanceBeforeItRecovered() {
    // Given gpu-1 out of memory from 10 s to 20 s, dispatches to it at 10.2 s and 10.8 s
    final RunFixture fixture = new RunFixture()
        .fault(FaultKind.OOM, "gpu-1", 10_000, "gpu-1")
        .fault(FaultKind.RECOVER, "gpu-1", 20_000, "gpu-1")
        .dispatch("a", 1, "gpu-1", 9_000)
        .dispatch("b", 1, "gpu-1", 10_200)
        .dispatch("c", 1, "gpu-1", 10_800)
        .dispatch("d", 1, "gpu-0", 15_000)
        .dispatch("e", 1, "gpu-1", 21_000)
        .completed("b", 10_100, 3_000, "gpu-0")
        .outcome("c", Status.TIMED_OUT, 10_700, 40_700, List.of());

    final OomFigures figures = OomFigures.of(fixture.run("p"));

    assertThat(figures.trafficOffMs().value()).hasValue(800);
    assertThat(figures.trafficOffMs().text()).isEqualTo("800 (2 sent after the fault)");
    assertThat(figures.failedRequests().value()).hasValue(1);
    assertThat(figures.failedRequests().text()).isEqualTo("1 of 2 sent there");
  }

  @Test
  void shouldCountTrafficAsNeverOffWhenDispatchesGoOnToTheEndOfTheEpisode() {
    final RunFixture fixture = new RunFixture().loadEndingAt(30_000)
        .fault(FaultKind.OOM, "gpu-1", 10_000, "gpu-1")
        .dispatch("a", 1, "gpu-1", 12_000)
        .dispatch("b", 1, "gpu-1", 29_500);

    final Figure off = OomFigures.of(fixture.run("p")).trafficOffMs();

    assertThat(off.value()).hasValue(Double.POSITIVE_INFINITY);
    assertThat(off.text()).isEqualTo("never: 2 sent until the end of the load (20.0 s)");
  }

  @Test
  void shouldBeZeroWhenNothingWasSentAfterTheFault() {
    final RunFixture fixture = new RunFixture()
        .fault(FaultKind.OOM, "gpu-1", 10_000, "gpu-1")
        .dispatch("a", 1, "gpu-1", 9_990);

    final OomFigures figures = OomFigures.of(fixture.run("p"));

    assertThat(figures.trafficOffMs().value()).hasValue(0);
    assertThat(figures.failedRequests().value()).hasValue(0);
  }

  @Test
  void shouldBeNotApplicableWithoutAnOomFault() {
    final OomFigures figures = OomFigures.of(new RunFixture().fault(FaultKind.STALL, "gpu-1", 1, "gpu-1").run("p"));

    assertThat(figures.trafficOffMs().measured()).isFalse();
    assertThat(figures.trafficOffMs().text()).isEqualTo("n/a: no oom fault");
  }
}
