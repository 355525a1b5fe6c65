package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyPredictor;

/**
 * What this router knows that the heatmap does not show yet, laid over it: its own dispatches
 * since each instance's last sample ({@link LocalDispatches}), when it expects its requests on
 * each instance to end ({@link ExpectedWork}), and the instances it just cut several sequences
 * away from ({@link RecentCutovers}). The request path and the stall path read and feed the same
 * view, so each sees the other's work. Used by one router thread only.
 */
public final class LocalView {

  private final LocalDispatches dispatches;
  private final ExpectedWork expected;
  private final RecentCutovers cutovers;

  public LocalView(final LocalDispatches dispatches, final ExpectedWork expected, final RecentCutovers cutovers) {
    this.dispatches = requireNonNull(dispatches, "dispatches");
    this.expected = requireNonNull(expected, "expected");
    this.cutovers = requireNonNull(cutovers, "cutovers");
  }

  /** The heatmap as this router sees it at {@code nowMs}. */
  public Heatmap applyTo(final Heatmap heatmap, final long nowMs) {
    return cutovers.applyTo(dispatches.applyTo(heatmap, nowMs), nowMs).withOwnWork(expected.at(nowMs), nowMs);
  }

  /**
   * Notes a dispatch to an instance, decided on {@code seen} (this view of the heatmap): it starts
   * once its dispatch reached the worker and its queue wait is over, and ends its predicted
   * latency after the dispatch reached the worker.
   */
  public void dispatched(final Decision decision, final String sequenceId, final Heatmap seen, final long nowMs) {
    final String instanceId = decision.instanceId();
    dispatches.record(instanceId, nowMs);
    if (decision.predictedLatencyMs() != null) {
      final double reachedMs = nowMs + LatencyPredictor.handoffMs(seen, instanceId);
      expected.dispatched(instanceId, sequenceId,
          Math.round(reachedMs + LatencyPredictor.queueWaitMs(seen, instanceId)),
          Math.round(reachedMs + decision.predictedLatencyMs()), nowMs);
    }
  }

  /**
   * Notes that a sequence waiting in an instance's queue moved away from it: the instance's queue,
   * not its engine, held it, so unlike a cut-over it marks nothing.
   */
  public void movedAway(final String instanceId, final String sequenceId) {
    expected.cutAway(instanceId, sequenceId);
  }

  /** Notes that a sequence was cut over away from an instance. */
  public void cutAway(final String instanceId, final String sequenceId, final long nowMs) {
    cutovers.cutAway(instanceId, sequenceId, nowMs);
    expected.cutAway(instanceId, sequenceId);
  }
}
