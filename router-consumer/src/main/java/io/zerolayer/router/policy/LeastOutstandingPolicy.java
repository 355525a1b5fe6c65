package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Least outstanding requests, like nginx's {@code least_conn}: every instance the heatmap knows,
 * fewest outstanding requests first (cost = that count), blind to latency and health scores.
 * Outstanding = running + queued, from the row. The router's own dispatches that the heatmap
 * does not show yet are counted too: the request path adds them to the row's queue length
 * before it asks for a ranking. A cut-over backup is ranked on the heatmap as read, without them.
 * Ties are taken in turn, as {@code least_conn} does, starting after the previous leader.
 *
 * <p>Stateful: it remembers the previous leader. One instance serves one router thread and is
 * never shared between threads; {@link RoutingPolicies#named} makes a new one per call.
 */
public final class LeastOutstandingPolicy implements RoutingPolicy {

  public static final String NAME = "least-outstanding";

  private final Rotation rotation = new Rotation();

  @Override
  public List<Candidate> rank(final RequestProfile request, final Heatmap heatmap) {
    final List<Candidate> ranked = new ArrayList<>(heatmap.rows().size());
    for (final InstanceScore row : rotation.order(heatmap)) {
      ranked.add(new Candidate(row.getInstanceId(), LatencyPredictor.latencyMs(heatmap, row, request),
          outstanding(row)));
    }
    // Stable: equal counts keep the rotation's order.
    ranked.sort(Comparator.comparingDouble(Candidate::cost));
    if (!ranked.isEmpty()) {
      rotation.led(ranked.get(0).instanceId());
    }
    return ranked;
  }

  /** Requests the instance holds: running plus queued (never negative). */
  static int outstanding(final InstanceScore row) {
    return Math.max(0, row.getRunningRequests()) + Math.max(0, row.getQueueLength());
  }

  @Override
  public String name() {
    return NAME;
  }
}
