package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
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
import java.util.function.Supplier;

/**
 * Stage 1: picks the instance from the policy's ranking, pre-warms a cold one (and serves the
 * request on the next best warm instance while there is one), and falls back to the next best
 * when the first turned unusable in the heatmap between selection and dispatch. Nothing usable:
 * throttled, with a retry time predicted from the fleet. A policy that bounds the queue wait
 * passes over instances that would queue the request longer than the bound, and with none left
 * the request is throttled until the shortest queue would be short enough.
 */
public final class Decider {

  private static final RequestProfile TYPICAL = new RequestProfile("typical", 256, 128);

  private final RoutingPolicy policy;
  private final long defaultRetryAfterMs;
  private final int maxAttempts;
  private final long maxQueueWaitMs;

  /**
   * @param defaultRetryAfterMs the retry time when the heatmap knows no instance at all
   * @param maxAttempts attempts a sequence gets (the first and its cut-overs) before it is given up
   * @param maxQueueWaitMs the longest predicted queue wait a new request is sent into, for a policy
   *     that bounds it; 0 for no bound
   */
  public Decider(final RoutingPolicy policy, final long defaultRetryAfterMs, final int maxAttempts,
      final long maxQueueWaitMs) {
    this.policy = requireNonNull(policy, "policy");
    this.defaultRetryAfterMs = defaultRetryAfterMs;
    this.maxAttempts = maxAttempts;
    this.maxQueueWaitMs = maxQueueWaitMs;
  }

  /**
   * @param request the validated request
   * @param latest the heatmap as it is at dispatch time (read again after ranking)
   */
  public Decision select(final RequestProfile request, final Heatmap heatmap, final Supplier<Heatmap> latest) {
    final Decision decision = rank(request, heatmap, latest);
    return decision.dispatched()
        ? decision.predictingTtft(LatencyPredictor.ttftMs(heatmap, decision.instanceId(), request),
            LatencyPredictor.queueEstimateMs(heatmap, decision.instanceId()))
        : decision;
  }

  private Decision rank(final RequestProfile request, final Heatmap heatmap, final Supplier<Heatmap> latest) {
    final List<Candidate> all = policy.rank(request, heatmap);
    if (all.isEmpty()) {
      return throttled(heatmap, "no instance can take new work (" + heatmap.rows().size() + " known)");
    }
    final boolean bounded = maxQueueWaitMs > 0 && policy.boundsQueueWait();
    final List<Candidate> ranked = !bounded ? all : all.stream()
        .filter(candidate -> LatencyPredictor.queueWaitMs(heatmap, candidate.instanceId()) <= maxQueueWaitMs)
        .toList();
    if (ranked.isEmpty()) {
      final double shortestWaitMs = all.stream()
          .mapToDouble(candidate -> LatencyPredictor.queueWaitMs(heatmap, candidate.instanceId())).min().orElseThrow();
      return new Decision(RoutingOutcome.THROTTLED, null, String.format("every instance that could serve it would"
          + " queue it for %.0f ms or more before its prefill, over the %d ms bound (router.max.queue.wait.ms)",
          shortestWaitMs, maxQueueWaitMs), null, (long) Math.ceil(shortestWaitMs - maxQueueWaitMs));
    }
    final Heatmap now = latest.get();
    Candidate cold = null;
    double coldWarmup = 0;
    for (int i = 0; i < ranked.size(); i++) {
      final Candidate candidate = ranked.get(i);
      final InstanceScore row = now.row(candidate.instanceId());
      if (!policy.admits(row)) {
        continue;
      }
      // A cold instance is pre-warmed, and the request goes to the next best warm one if any,
      // so that no request pays for the warm-up while warm capacity is left.
      if (waitsForWarmUp(row)) {
        if (cold == null) {
          cold = candidate;
          coldWarmup = row.getWarmupLevel();
        }
        continue;
      }
      if (cold != null) {
        return new Decision(RoutingOutcome.PREWARMED, candidate.instanceId(),
            String.format("%s: %s (cost %.0f) is cold, warm-up %.0f%%: pre-warmed; served by the next best warm"
                + " instance, cost %.0f", policy.name(), cold.instanceId(), cold.cost(), 100 * coldWarmup,
                candidate.cost()), candidate.predictedLatencyMs(), null, cold.instanceId()).expectingWarm();
      }
      if (i == 0) {
        return warmIfChecked(new Decision(RoutingOutcome.DIRECT, candidate.instanceId(),
            String.format("%s: lowest cost %.0f of %d", policy.name(), candidate.cost(), ranked.size()),
            candidate.predictedLatencyMs(), null));
      }
      return warmIfChecked(new Decision(RoutingOutcome.FALLBACK, candidate.instanceId(),
          String.format("%s: %s became unusable before dispatch; next best, cost %.0f", policy.name(),
              ranked.get(0).instanceId(), candidate.cost()), candidate.predictedLatencyMs(), null));
    }
    if (cold != null) {
      return new Decision(RoutingOutcome.PREWARMED, cold.instanceId(),
          String.format("%s: no warm instance can take it; %s (cost %.0f, warm-up %.0f%%) pre-warmed and serves it",
              policy.name(), cold.instanceId(), cold.cost(), 100 * coldWarmup), cold.predictedLatencyMs(), null,
          cold.instanceId());
    }
    return throttled(now, "every ranked instance became unusable before dispatch");
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
  public Optional<Decision> selectBackup(final RequestProfile request, final Heatmap heatmap,
      final String stalledInstance, final String why, final int failedAttempts, final boolean mayWait) {
    if (failedAttempts >= maxAttempts) {
      return Optional.of(throttled(heatmap, "all " + maxAttempts + " attempts failed; the last on "
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
      if (waitsForWarmUp(heatmap.row(candidate.instanceId()))) {
        cold = cold == null ? candidate : cold;
        continue;
      }
      return Optional.of(warmIfChecked(cutOver(candidate, stalledInstance, why)));
    }
    if (cold != null && !startsAtOnceOnly) {
      return Optional.of(cutOver(cold, stalledInstance, why));
    }
    return mayWait ? Optional.empty() : Optional.of(throttled(heatmap, stalledInstance + " stalled (" + why
        + ") and no other instance can take the sequence"));
  }

  /** Whether the policy moves an attempt queued far past its prediction (see {@link #selectStartingNow}). */
  public boolean movesQueuedAttempts() {
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
  public Optional<Decision> selectStartingNow(final RequestProfile request, final Heatmap heatmap,
      final String queuedOn, final String why, final int attempts) {
    if (!policy.movesQueuedAttempts() || attempts >= maxAttempts) {
      return Optional.empty();
    }
    for (final Candidate candidate : policy.rank(request, heatmap)) {
      final InstanceScore row = heatmap.row(candidate.instanceId());
      if (!candidate.instanceId().equals(queuedOn) && !waitsForWarmUp(row) && !ScoreRows.lossy(row)
          && LatencyPredictor.queueWaitMs(heatmap, candidate.instanceId()) <= 0) {
        return Optional.of(warmIfChecked(new Decision(RoutingOutcome.CUTOVER, candidate.instanceId(),
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

  /** Whether the policy keeps work off this instance while it warms up and a warm one is left. */
  private boolean waitsForWarmUp(final InstanceScore row) {
    return policy.preWarms() && !ScoreRows.warm(row);
  }

  /** A policy that keeps work off cold instances chose this one as warm; others do not look. */
  private Decision warmIfChecked(final Decision decision) {
    return policy.preWarms() ? decision.expectingWarm() : decision;
  }

  private static Decision cutOver(final Candidate backup, final String stalledInstance, final String why) {
    return new Decision(RoutingOutcome.CUTOVER, backup.instanceId(),
        String.format("%s stalled (%s); resumed on the best other instance, cost %.0f", stalledInstance, why,
            backup.cost()), backup.predictedLatencyMs(), null);
  }

  /** A throttle decision whose retry time is the soonest a known instance should have room. */
  Decision throttled(final Heatmap heatmap, final String reason) {
    return new Decision(RoutingOutcome.THROTTLED, null, reason, null, retryAfterMs(heatmap));
  }

  long retryAfterMs(final Heatmap heatmap) {
    double soonest = Double.MAX_VALUE;
    for (final InstanceScore row : heatmap.all()) {
      if (row.getState() != InstanceState.EJECTED) {
        soonest = Math.min(soonest, LatencyPredictor.queueWaitMs(row) + LatencyPredictor.serviceMs(row, TYPICAL));
      }
    }
    return soonest == Double.MAX_VALUE ? defaultRetryAfterMs : Math.max(1L, Math.round(soonest));
  }
}
