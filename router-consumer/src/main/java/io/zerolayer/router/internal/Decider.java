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
import java.util.List;
import java.util.function.Supplier;

/**
 * Stage 1: picks the instance from the policy's ranking, pre-warms a cold one (and serves the
 * request on the next best warm instance while there is one), and falls back to the next best
 * when the first turned unusable in the heatmap between selection and dispatch. Nothing usable:
 * throttled, with a retry time predicted from the fleet. A policy that bounds the queue wait
 * passes over instances that would queue the request longer than the bound, and with none left
 * the request is throttled until the shortest queue would be short enough. A stalled or queued
 * attempt's new instance is {@link BackupSelector}'s to pick.
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
        .filter(candidate -> candidate.queueWaitMs(heatmap) <= maxQueueWaitMs)
        .toList();
    if (ranked.isEmpty()) {
      final double shortestWaitMs = all.stream().mapToDouble(candidate -> candidate.queueWaitMs(heatmap)).min()
          .orElseThrow();
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

  /** Whether the policy keeps work off this instance while it warms up and a warm one is left. */
  boolean waitsForWarmUp(final InstanceScore row) {
    return policy.preWarms() && !ScoreRows.warm(row);
  }

  /** A policy that keeps work off cold instances chose this one as warm; others do not look. */
  Decision warmIfChecked(final Decision decision) {
    return policy.preWarms() ? decision.expectingWarm() : decision;
  }

  RoutingPolicy policy() {
    return policy;
  }

  /** Attempts a sequence gets, the first and its cut-overs. */
  int maxAttempts() {
    return maxAttempts;
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
