package io.zerolayer.fleet;

/**
 * The instance's token cadence: tokens in the last second, and the standard deviation of the
 * last 10 intervals between tokens (TGSV).
 */
final class TokenCadence {

  private static final int INTERVALS = 10;
  private static final long SECOND_NANOS = 1_000_000_000L;

  private final long[] intervals = new long[INTERVALS];
  private final long[] recent = new long[4096];
  private int intervalCount;
  private int recentCount;
  private long lastNanos;

  synchronized void tokenAt(final long nanos) {
    if (lastNanos != 0) {
      intervals[intervalCount % INTERVALS] = nanos - lastNanos;
      intervalCount++;
    }
    lastNanos = nanos;
    recent[recentCount % recent.length] = nanos;
    recentCount++;
  }

  synchronized double tokensPerSecond(final long nowNanos) {
    int count = 0;
    for (int i = 0; i < Math.min(recentCount, recent.length); i++) {
      if (nowNanos - recent[i] <= SECOND_NANOS) {
        count++;
      }
    }
    return count;
  }

  synchronized double intervalStddevMs() {
    final int n = Math.min(intervalCount, INTERVALS);
    if (n < 2) {
      return 0.0;
    }
    double mean = 0;
    for (int i = 0; i < n; i++) {
      mean += intervals[i];
    }
    mean /= n;
    double variance = 0;
    for (int i = 0; i < n; i++) {
      variance += (intervals[i] - mean) * (intervals[i] - mean);
    }
    return Math.sqrt(variance / n) / 1_000_000.0;
  }
}
