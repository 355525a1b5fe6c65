package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.OptionalInt;

/**
 * Waits until a starting child answers, reporting progress on stderr every few seconds, and fails
 * as soon as the child exits or the timeout passes.
 */
final class StartupWait {

  /** One readiness check; an exception counts as "not yet" and is kept for the error message. */
  @FunctionalInterface
  interface Probe {
    boolean ready() throws Exception;
  }

  private static final Duration POLL = Duration.ofMillis(250);
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

  private StartupWait() {
  }

  /**
   * @param what what is starting, as the user knows it ("Kafka broker on 127.0.0.1:9092")
   * @param fix what to do if it never answers
   * @return how long it took
   */
  static Duration until(final String what, final ChildJvm child, final Duration timeout, final Probe probe,
      final String fix) {
    requireNonNull(child, "child");
    requireNonNull(probe, "probe");
    final long start = System.nanoTime();
    long nextProgress = start + PROGRESS_EVERY.toNanos();
    String lastError = "no answer yet";
    while (true) {
      try {
        if (probe.ready()) {
          return Duration.ofNanos(System.nanoTime() - start);
        }
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LocalStackException("Interrupted while waiting for " + what, e);
      } catch (final Exception e) {
        lastError = e.toString();
      }
      final long now = System.nanoTime();
      if (now - start > timeout.toNanos()) {
        throw child.failure(what + " did not answer within " + timeout.toSeconds() + " s (last probe: "
            + lastError + ").", fix);
      }
      if (now >= nextProgress) {
        System.err.println("Waiting for " + what + " ... " + Duration.ofNanos(now - start).toSeconds() + " s");
        nextProgress += PROGRESS_EVERY.toNanos();
      }
      // Waiting on the child's exit doubles as the pause between probes and notices a crash at once.
      final OptionalInt exit = child.awaitExit(POLL);
      if (exit.isPresent()) {
        throw child.failure(what + " exited with code " + exit.getAsInt() + " while starting.", fix);
      }
    }
  }
}
