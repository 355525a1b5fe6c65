package io.zerolayer.fleet;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The instance's token cadence as its sequences see it: over the last 10 intervals between two
 * tokens of one sequence (of any sequence on the instance), their standard deviation (TGSV)
 * and the decode speed they make, in tokens per second of one sequence. That is what a real
 * server's inter-token latency histogram tells, so simulated and scraped telemetry agree.
 * Intervals older than two seconds are forgotten: an idle instance has no cadence, rather than
 * the one its last sequence had.
 */
final class TokenCadence {

  private static final int INTERVALS = 10;
  private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(2);

  private final long[] intervals = new long[INTERVALS];
  private final long[] notedAt = new long[INTERVALS];
  private int count;

  /** Notes, at {@code atNanos}, the time between a sequence's previous token and its new one. */
  synchronized void interval(final long nanos, final long atNanos) {
    intervals[count % INTERVALS] = nanos;
    notedAt[count % INTERVALS] = atNanos;
    count++;
  }

  synchronized double tokensPerSecond(final long nowNanos) {
    final long[] recent = recent(nowNanos);
    return recent.length == 0 ? 0.0 : 1e9 / mean(recent);
  }

  synchronized double intervalStddevMs(final long nowNanos) {
    final long[] recent = recent(nowNanos);
    if (recent.length < 2) {
      return 0.0;
    }
    final double mean = mean(recent);
    double variance = 0;
    for (final long interval : recent) {
      variance += (interval - mean) * (interval - mean);
    }
    return Math.sqrt(variance / recent.length) / 1_000_000.0;
  }

  /** Forgets every interval: the instance restarted. */
  synchronized void reset() {
    count = 0;
  }

  private long[] recent(final long nowNanos) {
    final int n = Math.min(count, INTERVALS);
    final long[] recent = new long[n];
    int kept = 0;
    for (int i = 0; i < n; i++) {
      if (nowNanos - notedAt[i] <= WINDOW_NANOS) {
        recent[kept++] = intervals[i];
      }
    }
    return Arrays.copyOf(recent, kept);
  }

  private static double mean(final long[] values) {
    double sum = 0;
    for (final long value : values) {
      sum += value;
    }
    return sum / values.length;
  }
}
