package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Tells a benchmark's warm-up when it may end: after at least its shortest warm-up, at the end of
 * a {@link #SLICE} in which this JVM's JIT compilers compiled no more than
 * {@link Rehearsals#QUIET_JIT_SHARE} of the time, or after its longest warm-up however busy they
 * stay. On two cores a JIT still at work competes with the layer for them, and the figures would
 * measure the compilers as much as the layer.
 */
public final class JitQuiet {

  /** How long each look at the JIT's work lasts. */
  public static final Duration SLICE = Duration.ofSeconds(10);

  private final Duration least;
  private final Duration most;
  private final PrintStream out;
  private final long startNanos = System.nanoTime();
  private long sliceStartNanos = startNanos;
  private OptionalLong sliceStartCompiled = JitClock.compiledMillis();

  /**
   * Starts the warm-up now.
   *
   * @param least the shortest warm-up
   * @param most the longest warm-up
   * @param out where each look that warms on is reported
   */
  public JitQuiet(final Duration least, final Duration most, final PrintStream out) {
    this.least = requireNonNull(least, "least");
    this.most = requireNonNull(most, "most");
    this.out = requireNonNull(out, "out");
    check(least, most);
  }

  /**
   * @throws IllegalArgumentException when the longest warm-up is shorter than the shortest
   */
  public static void check(final Duration least, final Duration most) {
    if (most.compareTo(least) < 0) {
      throw new IllegalArgumentException("The longest warm-up (" + most.toSeconds() + " s) is shorter than the"
          + " shortest (" + least.toSeconds() + " s): give --max-warmup at least --warmup");
    }
  }

  /** Whether the warm-up may end now; cheap enough to call for every request a warm-up sends. */
  public boolean warmEnough() {
    final long now = System.nanoTime();
    final Duration warmed = Duration.ofNanos(now - startNanos);
    if (most.equals(least) && warmed.compareTo(most) >= 0) {
      // A fixed warm-up: no look at the JIT.
      return true;
    }
    if (now - sliceStartNanos < SLICE.toNanos()) {
      return false;
    }
    final OptionalLong compiled = JitClock.since(sliceStartCompiled);
    final double share = compiled.isPresent() ? compiled.getAsLong() / (double) Duration.ofNanos(now - sliceStartNanos)
        .toMillis() : 0;
    sliceStartNanos = now;
    sliceStartCompiled = JitClock.compiledMillis();
    if (warmed.compareTo(least) < 0) {
      return false;
    }
    final boolean quiet = share <= Rehearsals.QUIET_JIT_SHARE;
    if (quiet || warmed.compareTo(most) >= 0) {
      if (!quiet) {
        out.printf(Locale.ROOT, "    the JIT still compiled %.0f %% of the last %d s after %d s; measuring anyway%n",
            100 * share, SLICE.toSeconds(), warmed.toSeconds());
      }
      return true;
    }
    out.printf(Locale.ROOT, "    the JIT compiled %.0f %% of the last %d s; warming on (%d s so far)%n", 100 * share,
        SLICE.toSeconds(), warmed.toSeconds());
    return false;
  }

  /** How long the warm-up has run. */
  public Duration warmed() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }
}
