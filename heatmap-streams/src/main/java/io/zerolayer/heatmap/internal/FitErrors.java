package io.zerolayer.heatmap.internal;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.avro.LatencyModel;

/**
 * How far each finished attempt was from what its instance's latency fit predicted just before
 * it, in percent of what it took: the fit's own error, for TTFT and for the whole attempt. The
 * defaults' guesses, before an instance has a fit, are not counted.
 */
public final class FitErrors {

  private final DistributionSummary ttft;
  private final DistributionSummary latency;

  public FitErrors(final MeterRegistry meters) {
    ttft = summary(meters, "ttft");
    latency = summary(meters, "latency");
  }

  private static DistributionSummary summary(final MeterRegistry meters, final String of) {
    return DistributionSummary.builder("zerolayer.heatmap.fit.error").tag("of", of).baseUnit("percent")
        .description("Absolute error of the instance's latency fit on each finished attempt, in percent of the truth")
        .publishPercentiles(0.5, 0.9, 0.99).register(meters);
  }

  /** Notes one finished attempt against the model its instance had before it. */
  void record(final LatencyModel model, final int inputTokens, final int outputTokens, final double ttftMs,
      final double totalMs) {
    if (model.getSamples() == 0) {
      return;
    }
    if (ttftMs > 0) {
      final double predicted = LatencyFitter.ttft(model, inputTokens, outputTokens);
      ttft.record(100 * Math.abs(predicted - ttftMs) / ttftMs);
    }
    if (totalMs > 0) {
      final double predicted = LatencyFitter.latency(model, inputTokens, outputTokens);
      latency.record(100 * Math.abs(predicted - totalMs) / totalMs);
    }
  }
}
