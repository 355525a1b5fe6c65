package io.zerolayer.bench;

import io.zerolayer.fleet.load.RequestOutcome.Status;
import io.zerolayer.fleet.load.RequestOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's P99 latency over time: at each whole second from the load's start, the P99 of the
 * completed requests that finished within the window before it (no point where none did).
 * The warm-up is included, so a chart shows where it ends.
 */
final class P99Timeline {

  /**
   * @param seconds from the load's start
   * @param p99Ms the P99 latency of the requests that finished in the window ending then
   */
  record Point(long seconds, long p99Ms) {
  }

  private P99Timeline() {
  }

  static List<Point> of(final PolicyRun run, final Duration window) {
    final List<long[]> finished = new ArrayList<>();
    for (final RequestOutcome outcome : run.outcomes()) {
      if (outcome.status() == Status.COMPLETED) {
        finished.add(new long[] {run.finishedMs(outcome) - run.loadStartMs(), outcome.latency().toMillis()});
      }
    }
    final long last = finished.stream().mapToLong(f -> f[0]).max().orElse(0);
    final List<Point> points = new ArrayList<>();
    for (long second = 1; second * 1000 < last + 1000; second++) {
      final long endMs = second * 1000;
      final List<Long> latencies = finished.stream()
          .filter(f -> f[0] > endMs - window.toMillis() && f[0] <= endMs).map(f -> f[1]).toList();
      if (!latencies.isEmpty()) {
        points.add(new Point(second, new Percentiles(latencies).at(99)));
      }
    }
    return points;
  }
}
