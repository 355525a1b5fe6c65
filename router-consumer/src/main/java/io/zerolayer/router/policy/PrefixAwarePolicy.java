package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A prefix-aware baseline, as SGLang's cache-aware router balances: while the fleet is balanced
 * (the busiest instance has at most {@link #BALANCE_MARGIN} outstanding requests more than the
 * least busy), the instance holding the longest prefix of the prompt, if it holds at least
 * {@link #MIN_MATCH} of the prompt's blocks; otherwise, and whenever the fleet is out of balance,
 * the least busy. It knows what each instance holds from the same index as Zerolayer's policy (the
 * engines' block events and the prompts routed), and like the other baselines it ranks every
 * instance the heatmap knows, blind to health and latency scores. Outstanding = running + queued,
 * with this router's own dispatches the heatmap does not show yet.
 */
public final class PrefixAwarePolicy implements RoutingPolicy {

  public static final String NAME = "prefix-aware";
  /** Outstanding requests between the busiest and the least busy instance within which the fleet counts as balanced. */
  static final int BALANCE_MARGIN = 8;
  /** Share of the prompt's blocks an instance must hold for the prefix to decide. */
  static final double MIN_MATCH = 0.5;

  @Override
  public List<Candidate> rank(final RequestProfile request, final Heatmap heatmap) {
    int most = 0;
    int least = Integer.MAX_VALUE;
    for (final InstanceScore row : heatmap.all()) {
      most = Math.max(most, LeastOutstandingPolicy.outstanding(row));
      least = Math.min(least, LeastOutstandingPolicy.outstanding(row));
    }
    final boolean balanced = most - least <= BALANCE_MARGIN;
    final int blocks = request.prefix().blocks();
    final List<Candidate> ranked = new ArrayList<>(heatmap.rows().size());
    for (final InstanceScore row : heatmap.all()) {
      final int held = request.prefix().heldBlocks(row.getInstanceId());
      final boolean matches = balanced && blocks > 0 && held >= MIN_MATCH * blocks;
      // Matching instances first, longest match first; then fewest outstanding.
      final double cost = (matches ? -1.0 - held : 0.0) * 1_000_000 + LeastOutstandingPolicy.outstanding(row);
      ranked.add(new Candidate(row.getInstanceId(), LatencyPredictor.latencyMs(heatmap, row, request), cost));
    }
    ranked.sort(Comparator.comparingDouble(Candidate::cost).thenComparing(Candidate::instanceId));
    return ranked;
  }

  @Override
  public String name() {
    return NAME;
  }
}
