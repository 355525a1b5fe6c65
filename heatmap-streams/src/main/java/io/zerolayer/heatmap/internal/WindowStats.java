package io.zerolayer.heatmap.internal;

import java.util.List;

/**
 * Mean, max and 95th percentile of every metric over one window.
 *
 * @param startMs the window's start (inclusive)
 * @param endMs the window's end (exclusive)
 * @param samples how many samples it holds
 * @param means per metric, {@link Metric} order
 * @param maxes per metric
 * @param p95s per metric
 */
public record WindowStats(long startMs, long endMs, long samples, double[] means, double[] maxes, double[] p95s) {

  /** The percentile every window reports besides mean and max. */
  public static final double PERCENTILE = 0.95;

  /** Exact statistics of raw samples, each a {@link Metric}-ordered array. */
  public static WindowStats of(final long startMs, final long endMs, final List<double[]> samples) {
    final int n = samples.size();
    final double[] means = new double[Metric.COUNT];
    final double[] maxes = new double[Metric.COUNT];
    final double[] p95s = new double[Metric.COUNT];
    if (n == 0) {
      return new WindowStats(startMs, endMs, 0, means, maxes, p95s);
    }
    // The percentile and the max are the smallest and largest of the n - rank highest values:
    // kept sorted as they are met, a few of them, instead of sorting every column (every sample).
    final double[] highest = new double[n - nearestRank(n)];
    for (int m = 0; m < Metric.COUNT; m++) {
      double sum = 0;
      int kept = 0;
      for (int i = 0; i < n; i++) {
        final double value = samples.get(i)[m];
        sum += value;
        kept = keepHighest(highest, kept, value);
      }
      means[m] = sum / n;
      maxes[m] = highest[highest.length - 1];
      p95s[m] = highest[0];
    }
    return new WindowStats(startMs, endMs, n, means, maxes, p95s);
  }

  /** Inserts a value into the ascending {@code highest[0, kept)} if it is among the highest; the new count. */
  private static int keepHighest(final double[] highest, final int kept, final double value) {
    if (kept < highest.length) {
      int i = kept;
      for (; i > 0 && Double.compare(highest[i - 1], value) > 0; i--) {
        highest[i] = highest[i - 1];
      }
      highest[i] = value;
      return kept + 1;
    }
    if (Double.compare(value, highest[0]) <= 0) {
      return kept;
    }
    int i = 0;
    for (; i + 1 < kept && Double.compare(highest[i + 1], value) < 0; i++) {
      highest[i] = highest[i + 1];
    }
    highest[i] = value;
    return kept;
  }

  /** The mean of one metric. */
  public double mean(final Metric metric) {
    return means[metric.ordinal()];
  }

  /** The maximum of one metric. */
  public double max(final Metric metric) {
    return maxes[metric.ordinal()];
  }

  /** The 95th percentile of one metric. */
  public double p95(final Metric metric) {
    return p95s[metric.ordinal()];
  }

  private static int nearestRank(final int n) {
    return Math.max(0, (int) Math.ceil(PERCENTILE * n) - 1);
  }
}
