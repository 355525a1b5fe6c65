package io.zerolayer.heatmap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.LatencyModel;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class FitErrorsTest {

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final FitErrors errors = new FitErrors(meters);

  @Test
  void shouldNoteHowFarEachAttemptWasFromTheFitInPercentOfTheTruth() {
    // TTFT 50 + 0.1 in, latency 50 + 0.1 in + 20 out
    final LatencyModel fitted = model(10);

    errors.record(fitted, 500, 10, 100, 300);
    errors.record(fitted, 500, 10, 50, 600);

    assertThat(summary("ttft").count()).isEqualTo(2);
    assertThat(summary("ttft").totalAmount()).isCloseTo(0 + 100, Offset.offset(1e-9));
    assertThat(summary("latency").totalAmount()).isCloseTo(0 + 50, Offset.offset(1e-9));
  }

  @Test
  void shouldNotCountTheDefaultsGuessesAsTheFitsErrors() {
    errors.record(model(0), 500, 10, 1_000, 5_000);

    assertThat(summary("ttft").count()).isZero();
    assertThat(summary("latency").count()).isZero();
  }

  private DistributionSummary summary(final String of) {
    return meters.get("zerolayer.heatmap.fit.error").tag("of", of).summary();
  }

  private static LatencyModel model(final long samples) {
    return LatencyModel.newBuilder().setLatencyInterceptMs(50).setLatencyPerInputTokenMs(0.1)
        .setLatencyPerOutputTokenMs(20).setTtftInterceptMs(50).setTtftPerInputTokenMs(0.1).setTtftPerOutputTokenMs(0)
        .setSamples(samples).build();
  }
}
