package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.RequestProfile;
import java.util.Optional;

/**
 * Stage 1 of a cut-over, with no Kafka types: picks the backup on the heatmap with this router's
 * unseen dispatches counted in, the backup serving the model the request asked for, then notes
 * the cut-away and counts the backup's own dispatch in turn. The streams of an ejected or stalled
 * instance are reported in one burst and all read the same heatmap; counting each backup's
 * dispatch keeps the burst from landing on the one instance that ranked best before it. Shares
 * its dispatches and cut-aways with the request path, so new requests see the resumed streams
 * too. A sequence that waits for an instance is no cut-away. Used by one router thread only.
 */
public final class StallDecider {

  private final BackupSelector backups;
  private final LocalView view;

  /**
   * @param view this router's own dispatches and cut-aways, shared with the request path
   */
  public StallDecider(final Decider decider, final LocalView view) {
    this.backups = new BackupSelector(decider);
    this.view = requireNonNull(view, "view");
  }

  /**
   * @param sequence the rest of the stalled sequence: its prompt and the tokens it may still generate
   * @param model the model its request asked for: the backup serves it; null or blank for any instance
   * @param stalledInstance where the attempt stalled; never the backup
   * @param why the stall report's reason
   * @param failedAttempts the sequence's attempts that failed, this one included (1 for the first)
   * @param mayWait whether the sequence may stay where it is while no other instance can take it
   * @return the decision, or none while the sequence waits
   */
  public Optional<Decision> decide(final RequestProfile sequence, final String model, final Heatmap heatmap,
      final String stalledInstance, final String why, final int failedAttempts, final boolean mayWait,
      final long nowMs) {
    final Heatmap seen = seen(model, heatmap, nowMs);
    final Optional<Decision> decision = backups.selectBackup(sequence, seen, stalledInstance, why, failedAttempts,
        mayWait);
    decision.ifPresent(decided -> {
      view.cutAway(stalledInstance, sequence.sequenceId(), nowMs);
      noteDispatch(decided, sequence, seen, nowMs);
    });
    return decision;
  }

  /** Whether the policy moves an attempt queued far past its prediction at all. */
  public boolean movesQueuedAttempts() {
    return backups.movesQueuedAttempts();
  }

  /**
   * Moves an attempt that waits in its instance's queue far past its prediction to an instance
   * that starts it at once, if one would; none leaves it where it waits.
   *
   * @param queuedOn the instance whose queue holds it
   * @param attempts the sequence's attempts so far, this one included
   */
  public Optional<Decision> moveQueued(final RequestProfile sequence, final String model, final Heatmap heatmap,
      final String queuedOn, final String why, final int attempts, final long nowMs) {
    final Heatmap seen = seen(model, heatmap, nowMs);
    final Optional<Decision> decision = backups.selectStartingNow(sequence, seen, queuedOn, why, attempts);
    decision.ifPresent(decided -> {
      view.movedAway(queuedOn, sequence.sequenceId());
      noteDispatch(decided, sequence, seen, nowMs);
    });
    return decision;
  }

  /** The heatmap as this router sees it, cut down to the instances that serve {@code model}. */
  private Heatmap seen(final String model, final Heatmap heatmap, final long nowMs) {
    return ModelScope.of(model).applyTo(view.applyTo(heatmap, nowMs));
  }

  private void noteDispatch(final Decision decided, final RequestProfile sequence, final Heatmap seen,
      final long nowMs) {
    if (decided.dispatched()) {
      view.dispatched(decided, sequence.sequenceId(), seen, nowMs);
    }
  }
}
