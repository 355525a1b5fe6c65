package io.zerolayer.telemetry.internal;

import io.zerolayer.telemetry.prometheus.Histogram;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Estimates TGSV, the standard deviation of token intervals, from the token-interval histogram
 * of one scrape window.
 *
 * <p>Each bucket's observations are placed at the bucket's midpoint (the first bucket starts at
 * 0; the {@code +Inf} bucket's observations at the last finite bound, which understates them),
 * and the estimate is the standard deviation of those points. Spread inside one bucket is
 * invisible, so a steady stream reads 0 and the resolution is the bucket width (25 ms around
 * vLLM's usual 25 to 100 ms intervals). It describes every sequence's intervals in the window,
 * not the last 10 of one sequence, so differences between sequences count as spread too.
 */
public final class TokenIntervalSpread {

  private TokenIntervalSpread() {
  }

  /** The estimate in ms; empty when the window holds fewer than two intervals. */
  public static OptionalDouble stddevMs(final Histogram window) {
    if (window.count() < 2) {
      return OptionalDouble.empty();
    }
    final List<Histogram.Bucket> buckets = window.buckets();
    final double[] points = new double[buckets.size()];
    final double[] counts = new double[buckets.size()];
    double lower = 0.0;
    double previousCumulative = 0.0;
    for (int i = 0; i < buckets.size(); i++) {
      final double upper = buckets.get(i).upperBound();
      points[i] = Double.isInfinite(upper) ? lower : (lower + upper) / 2;
      counts[i] = buckets.get(i).cumulativeCount() - previousCumulative;
      previousCumulative = buckets.get(i).cumulativeCount();
      lower = Double.isInfinite(upper) ? lower : upper;
    }
    return OptionalDouble.of(1000 * Math.sqrt(variance(points, counts, window.count())));
  }

  private static double variance(final double[] points, final double[] counts, final double total) {
    double mean = 0.0;
    for (int i = 0; i < points.length; i++) {
      mean += counts[i] * points[i] / total;
    }
    double variance = 0.0;
    for (int i = 0; i < points.length; i++) {
      variance += counts[i] * (points[i] - mean) * (points[i] - mean) / total;
    }
    return variance;
  }
}
