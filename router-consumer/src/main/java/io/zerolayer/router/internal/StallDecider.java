package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.RequestProfile;

/**
 * Stage 1 of a cut-over, with no Kafka types: notes the cut-away, picks the backup on the
 * heatmap with this router's unseen dispatches counted in, and counts the backup's own dispatch
 * in turn. The streams of an ejected or stalled instance are reported in one burst and all read
 * the same heatmap; counting each backup's dispatch keeps the burst from landing on the one
 * instance that ranked best before it. The backup serves the model the request asked for. Shares its dispatches and cut-aways with the request
 * path, so new requests see the resumed streams too. Used by one router thread only.
 */
public final class StallDecider {

  private final Decider decider;
  private final LocalView view;

  /**
   * @param view this router's own dispatches and cut-aways, shared with the request path
   */
  public StallDecider(final Decider decider, final LocalView view) {
    this.decider = requireNonNull(decider, "decider");
    this.view = requireNonNull(view, "view");
  }

  /**
   * @param sequence the rest of the stalled sequence: its prompt and the tokens it may still generate
   * @param model the model its request asked for: the backup serves it; null or blank for any instance
   * @param stalledInstance where the attempt stalled; never the backup
   * @param why the stall report's reason
   * @param failedAttempts the sequence's attempts that failed, this one included (1 for the first)
   */
  public Decision decide(final RequestProfile sequence, final String model, final Heatmap heatmap,
      final String stalledInstance, final String why, final int failedAttempts, final long nowMs) {
    view.cutAway(stalledInstance, sequence.sequenceId(), nowMs);
    final Decision decision = decider.selectBackup(sequence, ModelScope.of(model).applyTo(view.applyTo(heatmap,
        nowMs)), stalledInstance, why, failedAttempts);
    if (decision.dispatched()) {
      view.dispatched(decision.instanceId(), nowMs);
    }
    return decision;
  }
}
