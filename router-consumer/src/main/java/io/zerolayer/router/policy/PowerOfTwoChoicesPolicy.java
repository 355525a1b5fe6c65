package io.zerolayer.router.policy;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Power of two choices (Mitzenmacher; Envoy's least-request balancer with two choices): two
 * distinct instances drawn at random from every instance the heatmap knows, the one with fewer
 * outstanding requests (running + queued, as {@link LeastOutstandingPolicy} counts them) first;
 * on a tie the first drawn. The ranking holds those two only (one when the heatmap knows one
 * instance), so a dispatch-time fallback can only take the other draw. Blind to latency and
 * health scores.
 *
 * <p>Draws from its own {@link Random}; pass a seeded one for a repeatable sequence. Used by one
 * router thread; {@link RoutingPolicies#named} makes a new one per call.
 */
public final class PowerOfTwoChoicesPolicy implements RoutingPolicy {

  public static final String NAME = "p2c";

  private final Random random;

  public PowerOfTwoChoicesPolicy() {
    this(new Random());
  }

  public PowerOfTwoChoicesPolicy(final Random random) {
    this.random = requireNonNull(random, "random");
  }

  @Override
  public List<Candidate> rank(final RequestProfile request, final Heatmap heatmap) {
    // Id order, so that a seeded Random draws the same instances whatever the map's order.
    final List<InstanceScore> rows = new ArrayList<>(heatmap.all());
    rows.sort(Comparator.comparing(InstanceScore::getInstanceId));
    if (rows.size() < 2) {
      return rows.stream().map(row -> candidate(heatmap, row, request)).toList();
    }
    final int first = random.nextInt(rows.size());
    final int other = random.nextInt(rows.size() - 1);
    final int second = other >= first ? other + 1 : other;
    final Candidate a = candidate(heatmap, rows.get(first), request);
    final Candidate b = candidate(heatmap, rows.get(second), request);
    return b.cost() < a.cost() ? List.of(b, a) : List.of(a, b);
  }

  private static Candidate candidate(final Heatmap heatmap, final InstanceScore row,
      final RequestProfile request) {
    return new Candidate(row.getInstanceId(), LatencyPredictor.latencyMs(heatmap, row, request),
        LeastOutstandingPolicy.outstanding(row));
  }

  @Override
  public String name() {
    return NAME;
  }
}
