package io.zerolayer.runtime;

import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;

/**
 * What a Streams app does when a stream thread fails, and whether it is failing now. A failed
 * thread is replaced, so that a passing fault (a broker that moved, a schema registry that is
 * down) costs a retry, not the app; but a task that fails again and again, other than for the
 * registry, would retry for ever while the app looked healthy, so after {@code maxFailures} in
 * {@code window} the app stops (state ERROR, and its process exits to be restarted). The global
 * store's thread cannot be replaced: its failure stops the app at once. Thread-safe.
 */
public final class StreamThreadFailures {

  /** Failures an app survives within the window. */
  public static final int MAX_FAILURES = 5;
  public static final Duration WINDOW = Duration.ofMinutes(5);
  /** How long after a failure the app is not ready: its replaced thread has yet to show it works. */
  public static final Duration RECOVERY = Duration.ofSeconds(10);

  private final int maxFailures;
  private final long windowMs;
  private final long recoveryMs;
  private final Deque<Long> counted = new ArrayDeque<>();
  private long lastFailureMs = Long.MIN_VALUE;

  public StreamThreadFailures() {
    this(MAX_FAILURES, WINDOW, RECOVERY);
  }

  StreamThreadFailures(final int maxFailures, final Duration window, final Duration recovery) {
    this.maxFailures = maxFailures;
    this.windowMs = window.toMillis();
    this.recoveryMs = recovery.toMillis();
  }

  /** The answer to a stream thread's failure at {@code nowMs}. */
  public synchronized StreamThreadExceptionResponse failed(final Throwable error, final boolean globalThread,
      final long nowMs) {
    lastFailureMs = nowMs;
    if (globalThread) {
      return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }
    if (SchemaRegistryUnavailableException.causedBy(error)) {
      return StreamThreadExceptionResponse.REPLACE_THREAD;
    }
    counted.addLast(nowMs);
    while (counted.peekFirst() < nowMs - windowMs) {
      counted.pollFirst();
    }
    return counted.size() > maxFailures ? StreamThreadExceptionResponse.SHUTDOWN_CLIENT
        : StreamThreadExceptionResponse.REPLACE_THREAD;
  }

  /** Whether a thread failed within the recovery time: the app's work is stopped or only just resumed. */
  public synchronized boolean failingAt(final long nowMs) {
    return lastFailureMs != Long.MIN_VALUE && nowMs - lastFailureMs < recoveryMs;
  }
}
