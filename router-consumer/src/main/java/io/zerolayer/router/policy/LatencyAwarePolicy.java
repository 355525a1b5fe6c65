package io.zerolayer.router.policy;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.LatencyModel;
import io.zerolayer.contract.score.ScoreRows;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Zerolayer's policy: cost = (predicted latency + predicted queue wait) / weight, lowest first
 * among the instances predicted to meet the {@link ServiceObjective} (first token, queue and the
 * layer's hand-off included, and time per output token, each divided by the weight as the cost
 * is), then the others: a request that one instance would start within its objective does not
 * wait past it in another's queue for a shorter end to end, and when none would meet it the cost
 * alone ranks.
 * The prefill predicted on an instance covers only the prompt tokens its prefix cache does not
 * hold, as long as the instance has at most {@link #PREFIX_LOAD_MARGIN} requests more than the
 * least busy usable one: beyond that, a hot prefix does not pull more work onto it. A request of
 * a session goes to the instance that served the session's previous request, first, while that
 * instance is healthy and within the same margin of the least busy.
 * Ejected, unavailable and suspect instances and those of weight 0 are never ranked. An instance
 * that is network-degraded or in a penalised zone (its own packet loss shows before its zone's
 * verdict) is lossy: while a healthy instance has headroom (no queue), lossy ones are ranked after
 * every healthy one; once every healthy instance queues, a lossy one costs
 * {@link #LOSSY_LATENCY_FACTOR} times its predicted latency and takes work when the others'
 * queues would make a request wait that much longer, so that a fleet short of healthy capacity
 * does not pile every request onto what is left. Instances the router has just cut several
 * sequences away from are ranked only when nothing else is.
 */
public final class LatencyAwarePolicy implements RoutingPolicy {

  public static final String NAME = "zerolayer";
  /** Outstanding requests above the least busy instance's beyond which a cached prefix no longer counts. */
  static final int PREFIX_LOAD_MARGIN = 4;
  /**
   * How many times its predicted latency a lossy instance costs: a chunk that loses a packet
   * waits a retransmission timeout (200 ms and more) and the stream's later tokens behind it, and
   * a stream there is likelier to stall and be cut over.
   */
  static final double LOSSY_LATENCY_FACTOR = 3.0;

  private final ServiceObjective objective;

  /** Ranks against the {@linkplain ServiceObjective#DEFAULT default objective}. */
  public LatencyAwarePolicy() {
    this(ServiceObjective.DEFAULT);
  }

  public LatencyAwarePolicy(final ServiceObjective objective) {
    this.objective = requireNonNull(objective, "objective");
  }

  @Override
  public List<Candidate> rank(final RequestProfile request, final Heatmap heatmap) {
    final List<Ranked> serving = new ArrayList<>();
    final List<Ranked> lossyOnes = new ArrayList<>();
    final List<Ranked> cutAway = new ArrayList<>();
    final PeerModels peers = heatmap.peerModels();
    final int leastBusy = heatmap.all().stream().filter(ScoreRows::usable).mapToInt(LatencyAwarePolicy::outstanding)
        .min().orElse(0);
    final RequestProfile uncached = request.withoutPrefix();
    boolean healthyHeadroom = false;
    for (final InstanceScore row : heatmap.all()) {
      if (!ScoreRows.usable(row)) {
        continue;
      }
      final RequestProfile asked = outstanding(row) <= leastBusy + PREFIX_LOAD_MARGIN ? request : uncached;
      final LatencyModel model = peers.of(row);
      final double queueMs = LatencyPredictor.queueWaitMs(heatmap, row, model);
      final double latency = queueMs + LatencyPredictor.serviceMs(row, model, asked);
      // A lossy instance's weight carries its zone's penalty, a near-ban; its factor prices it instead.
      final boolean lossy = ScoreRows.lossy(row);
      // A lost packet alone costs a retransmission timeout: no lossy instance is counted on to meet
      // it. A weight below 1 slows the predictions as it raises the cost.
      final double ttftMs = queueMs + LatencyPredictor.firstTokenServiceMs(row, model, asked)
          + LatencyPredictor.handoffMs(row);
      final boolean pastObjective = lossy
          || !objective.metBy(ttftMs / row.getWeight(), LatencyPredictor.tpotMs(row, model) / row.getWeight());
      final Ranked ranked = new Ranked(new Candidate(row.getInstanceId(), latency,
          lossy ? latency * LOSSY_LATENCY_FACTOR : latency / row.getWeight(), queueMs), pastObjective,
          outstanding(row));
      if (heatmap.cutAway().contains(row.getInstanceId())) {
        cutAway.add(ranked);
      } else if (lossy) {
        lossyOnes.add(ranked);
      } else {
        serving.add(ranked);
        healthyHeadroom |= row.getQueueLength() <= 0;
      }
    }
    if (!healthyHeadroom) {
      // Every healthy instance queues: the lossy ones compete by their price.
      serving.addAll(lossyOnes);
      lossyOnes.clear();
    }
    serving.sort(Ranked.CHEAPEST);
    if (request.sessionInstance() != null) {
      keepSession(serving, request.sessionInstance(), heatmap, leastBusy);
    }
    lossyOnes.sort(Ranked.CHEAPEST);
    serving.addAll(lossyOnes);
    if (serving.isEmpty()) {
      cutAway.sort(Ranked.CHEAPEST);
      return Ranked.candidates(cutAway);
    }
    return Ranked.candidates(serving);
  }

  /** A candidate with what ranks it beside its cost, worked out once rather than at every comparison. */
  private record Ranked(Candidate candidate, boolean pastObjective, int outstanding) {

    /**
     * Those predicted to meet the objective first, then the cheapest; equal costs (no decode-step
     * fit yet, say) go to the instance with less work on it.
     */
    static final Comparator<Ranked> CHEAPEST = (a, b) -> {
      if (a.pastObjective != b.pastObjective) {
        return a.pastObjective ? 1 : -1;
      }
      final int byCost = Double.compare(a.candidate.cost(), b.candidate.cost());
      if (byCost != 0) {
        return byCost;
      }
      final int byWork = Integer.compare(a.outstanding, b.outstanding);
      return byWork != 0 ? byWork : a.candidate.instanceId().compareTo(b.candidate.instanceId());
    };

    static List<Candidate> candidates(final List<Ranked> ranked) {
      final List<Candidate> candidates = new ArrayList<>(ranked.size());
      ranked.forEach(entry -> candidates.add(entry.candidate));
      return candidates;
    }
  }

  /**
   * Moves the session's instance to the front, if it is ranked, not lossy, not far busier, and
   * predicted to meet the objective or the first is not either.
   */
  private static void keepSession(final List<Ranked> ranked, final String instanceId, final Heatmap heatmap,
      final int leastBusy) {
    final boolean firstMeetsIt = !ranked.isEmpty() && !ranked.get(0).pastObjective();
    for (int i = 1; i < ranked.size(); i++) {
      final Ranked entry = ranked.get(i);
      if (entry.candidate().instanceId().equals(instanceId) && !ScoreRows.lossy(heatmap.row(instanceId))
          && !(firstMeetsIt && entry.pastObjective()) && entry.outstanding() <= leastBusy + PREFIX_LOAD_MARGIN) {
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
  public boolean boundsQueueWait() {
    return true;
  }

  @Override
  public boolean keepsLossyStreamsOutOfQueues() {
    return true;
  }

  @Override
  public boolean movesQueuedAttempts() {
    return true;
  }

  @Override
  public boolean resumesOutsideALossyZone() {
    return true;
  }

  @Override
  public boolean preWarms() {
    return true;
  }
}
