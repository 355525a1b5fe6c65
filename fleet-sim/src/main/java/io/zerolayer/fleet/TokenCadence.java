package io.zerolayer.fleet;

/**
 * The instance's token cadence as its sequences see it: over the last 10 intervals between two
 * tokens of one sequence (of any sequence on the instance), their standard deviation (TGSV)
 * and the decode speed they make, in tokens per second of one sequence. That is what a real
 * server's inter-token latency histogram tells, so simulated and scraped telemetry agree.
 */
final class TokenCadence {

  private static final int INTERVALS = 10;

  private final long[] intervals = new long[INTERVALS];
  private int count;

  /** Notes the time between a sequence's previous token and its new one. */
  synchronized void interval(final long nanos) {
    intervals[count % INTERVALS] = nanos;
    count++;
  }

  synchronized double tokensPerSecond() {
    final int n = Math.min(count, INTERVALS);
    if (n == 0) {
      return 0.0;
    }
    return 1e9 / mean(n);
  }

  synchronized double intervalStddevMs() {
    final int n = Math.min(count, INTERVALS);
    if (n < 2) {
      return 0.0;
    }
    final double mean = mean(n);
    double variance = 0;
    for (int i = 0; i < n; i++) {
      variance += (intervals[i] - mean) * (intervals[i] - mean);
    }
    return Math.sqrt(variance / n) / 1_000_000.0;
  }

  private double mean(final int n) {
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += intervals[i];
    }
    return sum / n;
  }
}
