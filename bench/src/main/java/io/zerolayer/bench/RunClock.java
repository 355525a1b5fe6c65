package io.zerolayer.bench;

/**
 * Ties a load's monotonic clock ({@link System#nanoTime()}, on which request outcomes are
 * timed) to the wall clock (on which routing decisions and injected faults are stamped).
 *
 * @param originNanos a reading of the monotonic clock
 * @param originMs the wall clock, epoch milliseconds, at that reading
 */
record RunClock(long originNanos, long originMs) {

  /** The two clocks now. */
  static RunClock now() {
    return new RunClock(System.nanoTime(), System.currentTimeMillis());
  }

  /** The wall-clock time, epoch milliseconds, of a monotonic reading. */
  long wallMs(final long nanos) {
    return originMs + Math.floorDiv(nanos - originNanos, 1_000_000L);
  }
}
