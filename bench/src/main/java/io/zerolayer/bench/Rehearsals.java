package io.zerolayer.bench;

import java.util.OptionalDouble;

/**
 * When the policy bench stops rehearsing and starts measuring: once the JIT compiled for no more
 * than {@link #QUIET_JIT_SHARE} of a rehearsal's time, or after {@link #MAX_REHEARSALS} however
 * busy it stays, or after one when the JVM does not say how long its JIT compiles. On this 2-core
 * machine one rehearsal left the first measured run sharing the cores with a JIT compiling about a
 * third of the time; from the third rehearsal on the share stays at 4 to 14 %, as in measured runs.
 * The latency and gateway benches hold their warm-ups to the same share ({@link JitQuiet}).
 */
public final class Rehearsals {

  /** The share of a rehearsal's time the JIT may spend compiling before the measured runs begin. */
  public static final double QUIET_JIT_SHARE = 0.15;
  /** Rehearsals at most, however busy the JIT stays. */
  static final int MAX_REHEARSALS = 4;

  /** What follows a rehearsal. */
  enum Next {
    /** The JIT was quiet enough, or the JVM does not say: measure. */
    MEASURE,
    /** The JIT was busy: rehearse once more. */
    REHEARSE_AGAIN,
    /** The JIT was still busy after the last allowed rehearsal: measure anyway. */
    MEASURE_ANYWAY
  }

  private Rehearsals() {
  }

  /**
   * What follows rehearsal {@code turn}.
   *
   * @param turn the rehearsal just made, from 1
   * @param jitShare the share of its time the JIT compiled; empty when the JVM does not measure it
   * @return measure, rehearse again, or measure anyway after the last allowed rehearsal
   */
  static Next after(final int turn, final OptionalDouble jitShare) {
    if (jitShare.isEmpty() || jitShare.getAsDouble() <= QUIET_JIT_SHARE) {
      return Next.MEASURE;
    }
    return turn < MAX_REHEARSALS ? Next.REHEARSE_AGAIN : Next.MEASURE_ANYWAY;
  }
}
