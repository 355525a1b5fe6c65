package io.zerolayer.heatmap.internal;

/**
 * Exponentially weighted moving average with time decay: a sample's weight halves every
 * half-life, so irregular sample spacing (a late or lost sample) does not skew the average.
 */
public final class Ewma {

  private final double halfLifeMs;

  public Ewma(final long halfLifeMs) {
    if (halfLifeMs <= 0) {
      throw new IllegalArgumentException("halfLifeMs must be positive, was " + halfLifeMs);
    }
    this.halfLifeMs = halfLifeMs;
  }

  /**
   * @param previous the averages so far, or null before the first sample
   * @param elapsedMs time since the previous sample
   * @param sample the new values
   * @return the new averages
   */
  public double[] next(final double[] previous, final long elapsedMs, final double[] sample) {
    if (previous == null) {
      return sample.clone();
    }
    // Two samples with one timestamp still count: the newer gets the weight of one millisecond.
    final double keep = Math.pow(0.5, Math.max(1, elapsedMs) / halfLifeMs);
    final double[] next = new double[sample.length];
    for (int i = 0; i < sample.length; i++) {
      next[i] = keep * previous[i] + (1 - keep) * sample[i];
    }
    return next;
  }
}
