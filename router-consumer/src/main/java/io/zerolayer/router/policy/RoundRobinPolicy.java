package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.ArrayList;
import java.util.List;

/**
 * The control group, like an nginx upstream of equal weights: every instance the heatmap knows,
 * in instance-id order, one step further on each call, blind to load, latency and health
 * scores. The ranking is the whole cycle from the next instance on (cost = place in it), so a
 * fallback at dispatch takes the following instance, as nginx's next upstream does.
 *
 * <p>Stateful: it remembers where the cycle stands. One instance serves one router thread and is
 * never shared between threads; {@link RoutingPolicies#named} makes a new one per call.
 */
public final class RoundRobinPolicy implements RoutingPolicy {

  public static final String NAME = "round-robin";

  private final Rotation rotation = new Rotation();

  @Override
  public List<Candidate> rank(final RequestProfile request, final Heatmap heatmap) {
    final List<InstanceScore> order = rotation.order(heatmap);
    final List<Candidate> ranked = new ArrayList<>(order.size());
    for (final InstanceScore row : order) {
      ranked.add(new Candidate(row.getInstanceId(), LatencyPredictor.latencyMs(heatmap, row, request), ranked.size()));
    }
    if (!ranked.isEmpty()) {
      rotation.led(ranked.get(0).instanceId());
    }
    return ranked;
  }

  @Override
  public String name() {
    return NAME;
  }
}
