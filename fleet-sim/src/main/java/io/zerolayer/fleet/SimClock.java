package io.zerolayer.fleet;

/**
 * The time a simulated GPU lives in: when it is, how long between two tokens, and how it waits
 * out prefill and decode steps. The system's in production; a manual one lets tests step
 * through warm-up, faults and token intervals without waiting for them.
 */
public interface SimClock {

  /** Wall-clock time, epoch milliseconds. */
  long millis();

  /** A monotonic reading for intervals, nanoseconds. */
  long nanoTime();

  /** Waits {@code millis} (fractions allowed) of this clock's time. */
  void sleep(double millis) throws InterruptedException;

  /** The system clock; {@link #sleep} blocks the calling thread. */
  static SimClock system() {
    return new SimClock() {
      @Override
      public long millis() {
        return System.currentTimeMillis();
      }

      @Override
      public long nanoTime() {
        return System.nanoTime();
      }

      @Override
      public void sleep(final double millis) throws InterruptedException {
        final long nanos = (long) (millis * 1_000_000);
        Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
      }
    };
  }
}
