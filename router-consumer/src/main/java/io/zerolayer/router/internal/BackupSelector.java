package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.score.ScoreRows;
import io.zerolayer.router.policy.Candidate;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyPredictor;
import io.zerolayer.router.policy.RequestProfile;
import io.zerolayer.router.policy.RoutingPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Picks where an attempt already under way goes next, by its {@link Decider}'s policy: a backup
 * for a stalled sequence, or an instance that starts at once an attempt queued far past its
 * prediction.
 */
final class BackupSelector {

  private final Decider decider;
  private final RoutingPolicy policy;
  private final int maxAttempts;

  BackupSelector(final Decider decider) {
    this.decider = requireNonNull(decider, "decider");
    this.policy = decider.policy();
    this.maxAttempts = decider.maxAttempts();
  }

  /**
   * Picks a backup for a stalled sequence: the best instance other than the stalled one (for a
   * policy that keeps lossy streams out of queues, while the sequence may wait and its instance
   * only loses packets, the best one outside its zone that would not queue it; outside a lossy
   * instance's zone first for a policy that resumes there). Nothing
   * left: none if the sequence may wait for one, else throttled, with the reason and a retry time
   * predicted from the fleet, so the client's stream ends with the error rather than in silence.
   * Every allowed attempt used: throttled.
   *
   * @param failedAttempts the sequence's attempts that failed, this one included (1 for the first)
   * @param mayWait whether the sequence may stay where it is while no other instance can take it
   */
  Optional<Decision> selectBackup(final RequestProfile request, final Heatmap heatmap,
      final String stalledInstance, final String why, final int failedAttempts, final boolean mayWait) {
    if (failedAttempts >= maxAttempts) {
      return Optional.of(decider.throttled(heatmap, "all " + maxAttempts + " attempts failed; the last on "
          + stalledInstance + ": " + why));
    }
    // A stream on an instance that loses packets slows, by a retransmission timeout now and then,
    // and goes on, even once its cadence takes the instance's weight for new work; resumed behind a
    // queue it would wait for all of it. On Azure's trace with the healthy capacity short, the
    // requests that timed out had been moved so from the lossy zone onto the slow class's queues,
    // by the rate rule first, then by the heatmap's cadence cut-over, queued ones among them.
    final InstanceScore stalled = heatmap.row(stalledInstance);
    final boolean startsAtOnceOnly = mayWait && policy.keepsLossyStreamsOutOfQueues()
        && ScoreRows.lossyButServing(stalled);
    // Its zone's network is the likelier cause, and the zone's other instances share it.
    final String lossyZone = policy.resumesOutsideALossyZone() && stalled != null && ScoreRows.lossy(stalled)
        ? stalled.getZone() : null;
    Candidate cold = null;
    for (final Candidate candidate : zoneLast(policy.rank(request, heatmap), heatmap, lossyZone)) {
      if (candidate.instanceId().equals(stalledInstance)
          || startsAtOnceOnly && (LatencyPredictor.queueWaitMs(heatmap, candidate.instanceId()) > 0
              || inZone(heatmap, candidate, lossyZone))) {
        continue;
      }
      // A resumed sequence waits for no weight load while a warm instance can take it.
      if (decider.waitsForWarmUp(heatmap.row(candidate.instanceId()))) {
        cold = cold == null ? candidate : cold;
        continue;
      }
      return Optional.of(decider.warmIfChecked(cutOver(candidate, stalledInstance, why)));
    }
    if (cold != null && !startsAtOnceOnly) {
      return Optional.of(cutOver(cold, stalledInstance, why));
    }
    return mayWait ? Optional.empty() : Optional.of(decider.throttled(heatmap, stalledInstance + " stalled (" + why
        + ") and no other instance can take the sequence"));
  }

  /** Whether the policy moves an attempt queued far past its prediction (see {@link #selectStartingNow}). */
  boolean movesQueuedAttempts() {
    return policy.movesQueuedAttempts();
  }

  /**
   * Picks, for a policy that moves queued attempts, an instance that would start an attempt
   * waiting in {@code queuedOn}'s queue at once: the best warm one with no queue, outside a
   * lossy zone. None when no instance would, or when every allowed attempt is used: the attempt
   * then stays where it waits, which costs the client nothing it would not have paid anyway. A
   * move counts as one of the sequence's attempts.
   *
   * @param attempts the sequence's attempts so far, this one included
   */
  Optional<Decision> selectStartingNow(final RequestProfile request, final Heatmap heatmap,
      final String queuedOn, final String why, final int attempts) {
    if (!policy.movesQueuedAttempts() || attempts >= maxAttempts) {
      return Optional.empty();
    }
    for (final Candidate candidate : policy.rank(request, heatmap)) {
      final InstanceScore row = heatmap.row(candidate.instanceId());
      if (!candidate.instanceId().equals(queuedOn) && !decider.waitsForWarmUp(row) && !ScoreRows.lossy(row)
          && LatencyPredictor.queueWaitMs(heatmap, candidate.instanceId()) <= 0) {
        return Optional.of(decider.warmIfChecked(new Decision(RoutingOutcome.CUTOVER, candidate.instanceId(),
            String.format("%s %s; moved to an instance that starts it at once, cost %.0f", queuedOn, why,
                candidate.cost()), candidate.predictedLatencyMs(), null)));
      }
    }
    return Optional.empty();
  }

  /**
   * The ranking with the instances of {@code zone} after every other, or as it is for none. In
   * replays with a zone losing packets, the streams cut away from one of its instances went to
   * the other, which the heatmap had not yet found lossy or which alone could start them at
   * once, and slowed there the same.
   */
  private static List<Candidate> zoneLast(final List<Candidate> ranked, final Heatmap heatmap, final String zone) {
    if (zone == null) {
      return ranked;
    }
    final List<Candidate> ordered = new ArrayList<>(ranked.size());
    final List<Candidate> zoneMates = new ArrayList<>();
    for (final Candidate candidate : ranked) {
      if (inZone(heatmap, candidate, zone)) {
        zoneMates.add(candidate);
      } else {
        ordered.add(candidate);
      }
    }
    ordered.addAll(zoneMates);
    return ordered;
  }

  private static boolean inZone(final Heatmap heatmap, final Candidate candidate, final String zone) {
    final InstanceScore row = heatmap.row(candidate.instanceId());
    return zone != null && row != null && zone.equals(row.getZone());
  }

  private static Decision cutOver(final Candidate backup, final String stalledInstance, final String why) {
    return new Decision(RoutingOutcome.CUTOVER, backup.instanceId(),
        String.format("%s stalled (%s); resumed on the best other instance, cost %.0f", stalledInstance, why,
            backup.cost()), backup.predictedLatencyMs(), null);
  }

}
