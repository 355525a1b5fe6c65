package io.zerolayer.fleet.load;

import java.time.Duration;

/**
 * The clock and timer a load runs on. Loads read time and wait only through it, so a test
 * can drive them on a clock of its own.
 */
public interface LoadScheduler {

  /** Now, in nanoseconds from an arbitrary origin (like {@link System#nanoTime()}). */
  long nanoTime();

  /** Runs {@code task} once, {@code delay} from now (at once when it is zero or negative). */
  void schedule(Runnable task, Duration delay);
}
