package io.zerolayer.fleet.load;

import java.time.Duration;
import java.util.Comparator;
import java.util.PriorityQueue;

/** A load scheduler on a clock that moves only when the test advances it; tasks run on the test's thread. */
final class ManualScheduler implements LoadScheduler {

  private record Due(long atNanos, long order, Runnable task) {
  }

  private final PriorityQueue<Due> queue = new PriorityQueue<>(
      Comparator.comparingLong(Due::atNanos).thenComparingLong(Due::order));
  private long nowNanos = 1_000_000_000L;
  private long scheduled;

  @Override
  public long nanoTime() {
    return nowNanos;
  }

  @Override
  public void schedule(final Runnable task, final Duration delay) {
    queue.add(new Due(nowNanos + Math.max(0, delay.toNanos()), scheduled++, task));
  }

  /** Moves the clock forward by {@code step}, running every task that falls due on the way, at its time. */
  void advance(final Duration step) {
    final long target = nowNanos + step.toNanos();
    while (!queue.isEmpty() && queue.peek().atNanos() <= target) {
      final Due due = queue.poll();
      nowNanos = due.atNanos();
      due.task().run();
    }
    nowNanos = target;
  }

  /** Runs what is due now. */
  void runDue() {
    advance(Duration.ZERO);
  }

  /** Tasks waiting. */
  int pending() {
    return queue.size();
  }
}
