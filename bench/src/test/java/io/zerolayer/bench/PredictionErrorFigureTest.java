package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PredictionErrorFigureTest {

  @Test
  void shouldAverageTheAbsoluteAndSignedPercentageErrorsOfRequestsServedWhereTheyWereFirstSent() {
    final PolicyRun run = new RunFixture()
        // First token after 300 ms, answer after 900: predicted 330 and 810.
        .completed("a", 1_000, 900, "gpu-0").predicted("a", 1, "gpu-0", 810, 330)
        // First token after 200 ms, answer after 600: predicted 160 and 600.
        .completed("b", 1_000, 600, "gpu-1").predicted("b", 1, "gpu-1", 600, 160)
        // A sequence cut over does not count: its measured times are not one instance's.
        .completed("cut", 1_000, 600, "gpu-1").predicted("cut", 1, "gpu-1", 1, 1).predicted("cut", 2, "gpu-2", 1, 1)
        .run("zerolayer");

    final Figure figure = PredictionErrorFigure.of(run);

    // TTFT +10 % and -20 %, latency -10 % and 0: biased low by 5 % each.
    assertThat(figure.text()).isEqualTo("TTFT 15.0 % (bias -5.0 %) / latency 5.0 % (bias -5.0 %) (2 requests)");
    assertThat(figure.value().getAsDouble()).isCloseTo(0.15, within(1e-9));
  }

  @Test
  void shouldSayWhenNoRequestHadAPrediction() {
    final PolicyRun run = new RunFixture().completed("a", 1_000, 900, "gpu-0").dispatch("a", 1, "gpu-0", 1_000)
        .run("zerolayer");

    assertThat(PredictionErrorFigure.of(run).text()).contains("no completed request with a prediction");
  }
}
