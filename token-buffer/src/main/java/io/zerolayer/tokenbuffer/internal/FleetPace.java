package io.zerolayer.tokenbuffer.internal;

import java.util.HashSet;
import java.util.Set;

/**
 * Whether the streams of one sweep slowed on many instances at once: a host or a fleet that is
 * busy as a whole slows every stream together, and then no backup is faster, so the rate rule
 * waits rather than move streams for a pause, a prefill and the same pace elsewhere. A slowdown
 * on at most a third of the instances that have streams here (a degraded instance, a lossy
 * zone) is not the fleet's, and neither is one on a single instance. The verdict of a sweep
 * applies to the next one; the rate rule needs three slow checks in a row, so a slowdown of the
 * whole fleet is known by the time any of its streams could be reported. Used by one stream
 * thread only.
 */
final class FleetPace {

  /** The largest share of the instances with streams whose slowing is still not the fleet's. */
  private static final double MAX_SLOW_SHARE = 1.0 / 3;

  private final Set<String> active = new HashSet<>();
  private final Set<String> slowing = new HashSet<>();
  private boolean slow;

  /** Notes the rate check of one stream on {@code owner} in the current sweep. */
  void note(final String owner, final boolean streamSlowing) {
    active.add(owner);
    if (streamSlowing) {
      slowing.add(owner);
    }
  }

  /** Ends a sweep: whether its streams slowed on many instances at once, for the next sweep. */
  void endSweep() {
    slow = slowing.size() >= 2 && slowing.size() > MAX_SLOW_SHARE * active.size();
    active.clear();
    slowing.clear();
  }

  /** Whether the last finished sweep saw streams slow on many instances at once. */
  boolean slow() {
    return slow;
  }
}
