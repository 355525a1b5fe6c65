package io.zerolayer.fleet.load;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A {@link LoadScheduler} on the system's monotonic clock and a small pool of timer threads. */
public final class ThreadScheduler implements LoadScheduler, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ThreadScheduler.class);

  private final ScheduledThreadPoolExecutor executor;

  /**
   * @param threads timer threads; sending is asynchronous, so one or two serve thousands of users
   */
  public ThreadScheduler(final int threads) {
    executor = new ScheduledThreadPoolExecutor(threads, runnable -> {
      final Thread thread = new Thread(runnable, "load-scheduler");
      thread.setDaemon(true);
      return thread;
    });
    executor.setRemoveOnCancelPolicy(true);
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public void schedule(final Runnable task, final Duration delay) {
    executor.schedule(() -> {
      try {
        task.run();
      } catch (final RuntimeException e) {
        // The executor would keep the failure in a future nobody reads.
        LOG.error("A load task failed: {}", e.toString(), e);
      }
    }, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
