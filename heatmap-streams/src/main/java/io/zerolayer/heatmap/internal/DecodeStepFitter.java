package io.zerolayer.heatmap.internal;

import io.zerolayer.contract.avro.DecodeStepFit;
import io.zerolayer.contract.avro.LatencyModel;

/**
 * Online least-squares fit of an instance's decode step (the time between two tokens of one
 * sequence) to the number of sequences it runs, from its telemetry samples. A continuous-batching
 * server decodes every running sequence in each step, so the step grows with the batch; the
 * router uses the fit to predict how fast a request would decode with one more sequence running.
 * Older samples count less, with the latency model's half-life.
 */
public final class DecodeStepFitter {

  /** Samples needed before the fit is published: a few seconds of telemetry. */
  static final long MIN_SAMPLES = 40;
  /**
   * Variance of the running sequences below which the samples cannot tell the slope from the
   * intercept (an instance that always ran the same batch).
   */
  private static final double MIN_VARIANCE = 0.1;

  private final double halfLifeMs;

  /** @param halfLifeMs after this long a sample weighs half as much */
  public DecodeStepFitter(final long halfLifeMs) {
    if (halfLifeMs <= 0) {
      throw new IllegalArgumentException("halfLifeMs must be positive, was " + halfLifeMs);
    }
    this.halfLifeMs = halfLifeMs;
  }

  /**
   * Adds one sample (null previous: none yet). A sample without running sequences or without a
   * decode speed says nothing about the step and leaves the fit as it was.
   *
   * @param running sequences the instance was running
   * @param decodeTokensPerS decode speed as one sequence saw it
   */
  public DecodeStepFit add(final DecodeStepFit previous, final int running, final double decodeTokensPerS,
      final long atMs) {
    if (running <= 0 || !(decodeTokensPerS > 0.0) || Double.isInfinite(decodeTokensPerS)) {
      return previous;
    }
    final double x = running;
    final double y = 1000.0 / decodeTokensPerS;
    if (previous == null) {
      return new DecodeStepFit(1.0, x, x * x, y, x * y, 1L, atMs);
    }
    final double keep = Math.pow(0.5, Math.max(0, atMs - previous.getUpdatedAtMs()) / halfLifeMs);
    return new DecodeStepFit(keep * previous.getWeight() + 1.0, keep * previous.getSumX() + x,
        keep * previous.getSumXx() + x * x, keep * previous.getSumY() + y, keep * previous.getSumXy() + x * y,
        previous.getSamples() + 1, Math.max(atMs, previous.getUpdatedAtMs()));
  }

  /**
   * The latency model with the fitted decode step; both step terms 0 while the samples are too
   * few or all of one batch size. A slope the noise pushed below 0 counts as 0.
   */
  public LatencyModel withDecodeStep(final LatencyModel model, final DecodeStepFit fit) {
    final LatencyModel.Builder builder = LatencyModel.newBuilder(model).setDecodeStepBaseMs(0.0)
        .setDecodeStepPerSequenceMs(0.0);
    if (fit == null || fit.getSamples() < MIN_SAMPLES) {
      return builder.build();
    }
    final double n = fit.getWeight();
    final double meanX = fit.getSumX() / n;
    final double meanY = fit.getSumY() / n;
    final double varianceX = fit.getSumXx() / n - meanX * meanX;
    if (varianceX < MIN_VARIANCE) {
      return builder.build();
    }
    final double slope = Math.max(0.0, (fit.getSumXy() / n - meanX * meanY) / varianceX);
    final double base = Math.max(0.0, meanY - slope * meanX);
    if (base == 0.0 && slope == 0.0) {
      return builder.build();
    }
    return builder.setDecodeStepBaseMs(base).setDecodeStepPerSequenceMs(slope).build();
  }
}
