package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.score.ScoreRows;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Zerolayer's policy: cost = (predicted latency + predicted queue wait) / weight, lowest first.
 * The prefill predicted on an instance covers only the prompt tokens its prefix cache does not
 * hold, as long as the instance has at most {@link #PREFIX_LOAD_MARGIN} requests more than the
 * least busy usable one: beyond that, a hot prefix does not pull more work onto it. A request of
 * a session goes to the instance that served the session's previous request, first, while that
 * instance is healthy and within the same margin of the least busy.
 * Ejected, unavailable and suspect instances and those of weight 0 are never ranked. Instances
 * that are network-degraded or in a penalised zone are ranked only when no other is left (an
 * instance's own packet loss shows before its zone's verdict), and those the router has just cut
 * several sequences away from only when nothing else is.
 */
public final class LatencyAwarePolicy implements RoutingPolicy {

  public static final String NAME = "zerolayer";
  /** Outstanding requests above the least busy instance's beyond which a cached prefix no longer counts. */
  static final int PREFIX_LOAD_MARGIN = 4;

  @Override
  public List<Candidate> rank(final RequestProfile request, final Heatmap heatmap) {
    final List<Candidate> healthy = new ArrayList<>();
    final List<Candidate> lossy = new ArrayList<>();
    final List<Candidate> cutAway = new ArrayList<>();
    final PeerModels peers = heatmap.peerModels();
    final int leastBusy = heatmap.all().stream().filter(ScoreRows::usable).mapToInt(LatencyAwarePolicy::outstanding)
        .min().orElse(0);
    final RequestProfile uncached = request.withoutPrefix();
    for (final InstanceScore row : heatmap.all()) {
      if (!ScoreRows.usable(row)) {
        continue;
      }
      final RequestProfile asked = outstanding(row) <= leastBusy + PREFIX_LOAD_MARGIN ? request : uncached;
      final double latency = LatencyPredictor.latencyMs(row, peers.of(row), asked);
      final Candidate candidate = new Candidate(row.getInstanceId(), latency, latency / row.getWeight());
      if (heatmap.cutAway().contains(row.getInstanceId())) {
        cutAway.add(candidate);
      } else {
        (row.getZonePenalised() || row.getNetworkDegraded() ? lossy : healthy).add(candidate);
      }
    }
    final List<Candidate> ranked = !healthy.isEmpty() ? healthy : !lossy.isEmpty() ? lossy : cutAway;
    // Equal costs (no decode-step fit yet, say) go to the instance with less work on it.
    ranked.sort(Comparator.comparingDouble(Candidate::cost)
        .thenComparingInt(candidate -> outstanding(heatmap.row(candidate.instanceId())))
        .thenComparing(Candidate::instanceId));
    if (ranked == healthy && request.sessionInstance() != null) {
      keepSession(ranked, request.sessionInstance(), heatmap, leastBusy);
    }
    return ranked;
  }

  /** Moves the session's instance to the front, if it is ranked among the healthy and not far busier. */
  private static void keepSession(final List<Candidate> ranked, final String instanceId, final Heatmap heatmap,
      final int leastBusy) {
    for (int i = 1; i < ranked.size(); i++) {
      if (ranked.get(i).instanceId().equals(instanceId)
          && outstanding(heatmap.row(instanceId)) <= leastBusy + PREFIX_LOAD_MARGIN) {
        ranked.add(0, ranked.remove(i));
        return;
      }
    }
  }

  private static int outstanding(final InstanceScore row) {
    return Math.max(0, row.getRunningRequests()) + Math.max(0, row.getQueueLength());
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean admits(final InstanceScore row) {
    return ScoreRows.usable(row);
  }

  @Override
  public boolean preWarms() {
    return true;
  }
}
