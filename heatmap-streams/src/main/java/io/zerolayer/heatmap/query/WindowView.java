package io.zerolayer.heatmap.query;

import io.zerolayer.heatmap.internal.Metric;
import io.zerolayer.heatmap.internal.WindowStats;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One window of one instance's telemetry.
 *
 * @param startMs start, inclusive
 * @param endMs end, exclusive
 * @param samples samples in it
 * @param metrics per telemetry field: mean, max and p95
 */
public record WindowView(long startMs, long endMs, long samples, Map<String, Stat> metrics) {

  /** A metric's statistics over the window. */
  public record Stat(double mean, double max, double p95) {
  }

  /** The view of computed statistics. */
  public static WindowView of(final WindowStats stats) {
    final Map<String, Stat> metrics = new LinkedHashMap<>();
    for (final Metric metric : Metric.values()) {
      metrics.put(metric.field(), new Stat(stats.mean(metric), stats.max(metric), stats.p95(metric)));
    }
    return new WindowView(stats.startMs(), stats.endMs(), stats.samples(), metrics);
  }
}
