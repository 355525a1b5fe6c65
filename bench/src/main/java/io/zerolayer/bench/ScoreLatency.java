package io.zerolayer.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What the live phase measured: for each score row read, from its instance's telemetry sample to
 * the moment a committed-read consumer got it; and how many rows were read in each second.
 *
 * @param latenciesMs per row whose sample was taken in the measured window
 * @param rowsPerSecond per whole second of the measured window, the rows read in it
 */
record ScoreLatency(List<Long> latenciesMs, List<Long> rowsPerSecond) {

  /**
   * A score row as read.
   *
   * @param lastTelemetryMs sample time of the telemetry behind the row
   * @param readAtMs wall-clock time the consumer got it
   */
  record ReadRow(long lastTelemetryMs, long readAtMs) {
  }

  ScoreLatency {
    latenciesMs = List.copyOf(latenciesMs);
    rowsPerSecond = List.copyOf(rowsPerSecond);
  }

  /** Reduces the rows read to the figures of the window {@code [fromMs, toMs)}. */
  static ScoreLatency of(final List<ReadRow> rows, final long fromMs, final long toMs) {
    if (toMs <= fromMs) {
      throw new IllegalArgumentException("empty window [" + fromMs + ", " + toMs + ")");
    }
    final List<Long> latencies = new ArrayList<>();
    final long[] perSecond = new long[(int) ((toMs - fromMs) / 1000)];
    for (final ReadRow row : rows) {
      if (row.lastTelemetryMs() >= fromMs && row.lastTelemetryMs() < toMs) {
        latencies.add(row.readAtMs() - row.lastTelemetryMs());
      }
      final long second = Math.floorDiv(row.readAtMs() - fromMs, 1000);
      if (second >= 0 && second < perSecond.length) {
        perSecond[(int) second]++;
      }
    }
    final List<Long> counts = new ArrayList<>();
    for (final long count : perSecond) {
      counts.add(count);
    }
    return new ScoreLatency(latencies, counts);
  }
}
