package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestFiguresTest {

  @Test
  void shouldTakeLatencyPercentilesOverCompletedRequestsAndCountErrorsAndThrottlesOverAll() {
    final RunFixture fixture = new RunFixture();
    for (int i = 1; i <= 100; i++) {
      fixture.completed("c-" + i, i * 100L, i * 10L, "gpu-0");
    }
    fixture.outcome("t-1", Status.TIMED_OUT, 500, 30_500, List.of())
        .outcome("t-2", Status.THROTTLED, 600, 610, List.of());

    final RequestFigures figures = RequestFigures.of(fixture.run("p").measured(), 10_000);

    assertThat(figures.measured()).isEqualTo(102);
    assertThat(figures.completed()).isEqualTo(100);
    assertThat(figures.latencyP50().value()).hasValue(500);
    assertThat(figures.latencyP99().value()).hasValue(990);
    // The first of three chunks comes a third of the way through.
    assertThat(figures.ttftP50().value()).hasValue(166);
    assertThat(figures.errorRate().value()).hasValue(1.0 / 102);
    assertThat(figures.errorRate().text()).isEqualTo("0.98 % (1)");
    assertThat(figures.throttledRate().value()).hasValue(1.0 / 102);
    // 100 requests of 12 tokens in 10 s.
    assertThat(figures.tokensPerSecond().value()).hasValue(120.0);
  }

  @Test
  void shouldTakeTheTimePerOutputTokenAfterTheFirstAndCountGoodputOverEveryMeasuredRequest() {
    final RunFixture fixture = new RunFixture()
        // 12 tokens: the first after 300 ms, the rest over 600 ms: 600 / 11 = 54.5 ms each
        .completed("slow-tokens", 0, 900, "gpu-0")
        // the first after 100 ms, the rest over 200 ms: 18.2 ms each
        .completed("good", 0, 300, "gpu-0")
        // the first after 1,100 ms
        .completed("slow-first", 0, 3_300, "gpu-0")
        .outcome("failed", Status.FAILED, 0, 10, List.of());

    final RequestFigures figures = RequestFigures.of(fixture.run("p").measured(), 1_000);

    assertThat(figures.tpotP50().value()).hasValueCloseTo(600.0 / 11, within(0.01));
    assertThat(figures.tpotP99().value()).hasValueCloseTo(2_200.0 / 11, within(0.01));
    assertThat(figures.goodput().value()).as("one of four measured").hasValue(0.25);
  }

  @Test
  void shouldSayWhyWhenNoRequestCompleted() {
    final RunFixture fixture = new RunFixture().outcome("t-1", Status.FAILED, 0, 10, List.of());

    final RequestFigures figures = RequestFigures.of(fixture.run("p").measured(), 1_000);

    assertThat(figures.latencyP99().measured()).isFalse();
    assertThat(figures.latencyP99().text()).isEqualTo("n/a: no completed request");
    assertThat(figures.errorRate().value()).hasValue(1.0);
  }

  @Test
  void shouldLeaveRequestsSentDuringTheWarmUpOutOfTheFigures() {
    final RunFixture fixture = new RunFixture().measuringFrom(1_000)
        .completed("warm-up", 999, 5_000, "gpu-0")
        .completed("measured", 1_000, 200, "gpu-0");

    final RequestFigures figures = RequestFigures.of(fixture.run("p").measured(), 1_000);

    assertThat(figures.measured()).isEqualTo(1);
    assertThat(figures.latencyP99().value()).hasValue(200);
  }
}
