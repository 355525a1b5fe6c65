package io.zerolayer.heatmap.internal;

import java.util.Arrays;
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
    final double[] column = new double[n];
    for (int m = 0; m < Metric.COUNT; m++) {
      double sum = 0;
      for (int i = 0; i < n; i++) {
        column[i] = samples.get(i)[m];
        sum += column[i];
      }
      Arrays.sort(column);
      means[m] = n == 0 ? 0 : sum / n;
      maxes[m] = n == 0 ? 0 : column[n - 1];
      p95s[m] = n == 0 ? 0 : column[nearestRank(n)];
    }
    return new WindowStats(startMs, endMs, n, means, maxes, p95s);
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
