package io.zerolayer.router.policy;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * This router's own requests on one instance, as it expects them at one moment: how long each one
 * it expects running still has to go, and how long each one it expects queued will take once it
 * runs. A queue's wait depends on when the running requests end, and a batch filled by one burst
 * ends none of them soon; the instance's row shows only how many run. Requests of other routers,
 * and those this one expected to have ended, are not in it.
 */
public final class OwnWork {

  /** Nothing known: every request on the instance is taken for one of its usual shape. */
  public static final OwnWork NONE = new OwnWork(new double[0], new double[0]);

  private final double[] runningLeftMs;
  private final double[] queuedServiceMs;

  /**
   * @param runningLeftMs the time each running request still needs, in any order
   * @param queuedServiceMs the service time of each queued request, in the order they queued
   */
  public OwnWork(final double[] runningLeftMs, final double[] queuedServiceMs) {
    this.runningLeftMs = requireNonNull(runningLeftMs, "runningLeftMs").clone();
    this.queuedServiceMs = requireNonNull(queuedServiceMs, "queuedServiceMs").clone();
    Arrays.sort(this.runningLeftMs);
  }

  /** How many of its requests this router expects running. */
  int running() {
    return runningLeftMs.length;
  }

  /** How many of its requests this router expects queued. */
  int queued() {
    return queuedServiceMs.length;
  }

  /** The {@code i}-th longest time a running request still needs (0 for the longest). */
  double longestLeftMs(final int i) {
    return runningLeftMs[runningLeftMs.length - 1 - i];
  }

  /** The service time of the {@code i}-th queued request (0 for the first in line). */
  double queuedServiceMs(final int i) {
    return queuedServiceMs[i];
  }
}
