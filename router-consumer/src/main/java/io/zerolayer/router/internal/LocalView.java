package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.router.policy.Heatmap;

/**
 * What this router knows that the heatmap does not show yet, laid over it: its own dispatches
 * since each instance's last sample ({@link LocalDispatches}) and the instances it just cut
 * several sequences away from ({@link RecentCutovers}). The request path and the stall path
 * read and feed the same view, so each sees the other's work. Used by one router thread only.
 */
public final class LocalView {

  private final LocalDispatches dispatches;
  private final RecentCutovers cutovers;

  public LocalView(final LocalDispatches dispatches, final RecentCutovers cutovers) {
    this.dispatches = requireNonNull(dispatches, "dispatches");
    this.cutovers = requireNonNull(cutovers, "cutovers");
  }

  /** The heatmap as this router sees it at {@code nowMs}. */
  public Heatmap applyTo(final Heatmap heatmap, final long nowMs) {
    return cutovers.applyTo(dispatches.applyTo(heatmap, nowMs), nowMs);
  }

  /** Notes a dispatch to an instance. */
  public void dispatched(final String instanceId, final long nowMs) {
    dispatches.record(instanceId, nowMs);
  }

  /** Notes that a sequence was cut over away from an instance. */
  public void cutAway(final String instanceId, final String sequenceId, final long nowMs) {
    cutovers.cutAway(instanceId, sequenceId, nowMs);
  }
}
