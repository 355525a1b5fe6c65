package io.zerolayer.fleet;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a GPU sleeps on it or a test advances it; sleeping returns at once. */
public final class ManualClock implements SimClock {

  private final long startMs;
  private final AtomicLong elapsedNanos = new AtomicLong();

  public ManualClock(final long startMs) {
    this.startMs = startMs;
  }

  @Override
  public long millis() {
    return startMs + elapsedNanos.get() / 1_000_000;
  }

  @Override
  public long nanoTime() {
    return elapsedNanos.get();
  }

  @Override
  public void sleep(final double millis) {
    elapsedNanos.addAndGet((long) (millis * 1_000_000));
    // Lets a test thread run while another one waits out a fault in a tight loop.
    Thread.yield();
  }

  public void advance(final Duration duration) {
    elapsedNanos.addAndGet(duration.toNanos());
  }
}
