package io.zerolayer.router.policy;

import static io.zerolayer.router.policy.Rows.NOW_MS;
import static io.zerolayer.router.policy.Rows.REQUEST;
import static io.zerolayer.router.policy.Rows.heatmap;
import static io.zerolayer.router.policy.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.router.internal.Decider;
import io.zerolayer.router.internal.Decision;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EndpointPickerPolicyTest {

  private final EndpointPickerPolicy policy = new EndpointPickerPolicy(new Random(5));

  @Test
  void shouldRankNothingWhenTheHeatmapKnowsNoInstance() {
    assertThat(policy.rank(REQUEST, Heatmap.empty())).isEmpty();
  }

  @Test
  void shouldShedWhenEveryEndpointIsOverAThreshold() {
    final Heatmap heatmap = heatmap(endpoint("queued", 6, 0.1), endpoint("kv-full", 0, 0.81));

    assertThat(policy.rank(REQUEST, heatmap)).isEmpty();
  }

  @Test
  void shouldBeThrottledByTheRouterWhenSaturated() {
    final Heatmap heatmap = heatmap(endpoint("queued", 9, 0.2), endpoint("kv-full", 1, 0.95));

    final Decision decision = new Decider(policy, 1000, 4, 0).select(REQUEST, heatmap, () -> heatmap);

    assertThat(decision.outcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(decision.retryAfterMs()).isPositive();
  }

  @Test
  void shouldCountAnEndpointAtExactlyTheThresholdsAsHavingCapacity() {
    final Heatmap heatmap = heatmap(endpoint("edge", 5, 0.8), endpoint("over", 6, 0.8));

    assertThat(policy.rank(REQUEST, heatmap)).extracting(Candidate::instanceId).containsExactly("edge");
  }

  @Test
  void shouldRankByTheWeightedSumOfQueueAndKvCacheScores() {
    // scores: a 2*1 + 2*0.5 = 3.0; c 2*0.5 + 2*0.7 = 2.4; b 2*0 + 2*0.9 = 1.8
    final Heatmap heatmap = heatmap(endpoint("a", 0, 0.5), endpoint("b", 4, 0.1), endpoint("c", 2, 0.3));

    final List<Candidate> ranked = policy.rank(REQUEST, heatmap);

    assertThat(ranked).extracting(Candidate::instanceId).containsExactly("a", "c", "b");
    assertThat(ranked.get(0).cost()).isCloseTo(1.0, within(1e-9));
    assertThat(ranked.get(1).cost()).isCloseTo(1.6, within(1e-9));
    assertThat(ranked.get(2).cost()).isCloseTo(2.2, within(1e-9));
  }

  @Test
  void shouldLetKvCacheUsageDecideWhenAllQueuesAreEqual() {
    final Heatmap heatmap = heatmap(endpoint("full", 3, 0.7), endpoint("empty", 3, 0.05));

    final List<Candidate> ranked = policy.rank(REQUEST, heatmap);

    assertThat(ranked).extracting(Candidate::instanceId).containsExactly("empty", "full");
    assertThat(ranked.get(0).cost()).isCloseTo(0.1, within(1e-9));
  }

  @Test
  void shouldBreakTiesAtRandomAndRepeatablyFromASeed() {
    final Heatmap tied = heatmap(endpoint("a", 1, 0.2), endpoint("b", 1, 0.2), endpoint("c", 1, 0.2));
    final EndpointPickerPolicy twin = new EndpointPickerPolicy(new Random(5));
    final Set<String> leaders = new HashSet<>();

    for (int i = 0; i < 60; i++) {
      final List<Candidate> ranked = policy.rank(REQUEST, tied);
      assertThat(twin.rank(REQUEST, tied)).isEqualTo(ranked);
      leaders.add(ranked.get(0).instanceId());
    }

    assertThat(leaders).containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void shouldLeaveOutEndpointsWhoseMetricsAreStale() {
    final InstanceScore stale = endpoint("stale", 0, 0.0);
    stale.setLastTelemetryMs(NOW_MS - 2_001);
    final InstanceScore justFresh = endpoint("just-fresh", 2, 0.3);
    justFresh.setLastTelemetryMs(NOW_MS - 2_000);

    assertThat(policy.rank(REQUEST, heatmap(stale, justFresh, endpoint("fresh", 4, 0.3))))
        .extracting(Candidate::instanceId).containsExactly("just-fresh", "fresh");
  }

  @Test
  void shouldShedWhenOnlyAStaleEndpointHasCapacity() {
    final InstanceScore stale = endpoint("stale", 0, 0.0);
    stale.setLastTelemetryMs(NOW_MS - 5_000);

    assertThat(policy.rank(REQUEST, heatmap(stale, endpoint("busy", 8, 0.3)))).isEmpty();
  }

  @Test
  void shouldPredictLatencyWithTheSharedPredictor() {
    final InstanceScore row = endpoint("a", 3, 0.2);
    row.setRunningRequests(2);

    final Heatmap heatmap = heatmap(row);

    assertThat(policy.rank(REQUEST, heatmap).get(0).predictedLatencyMs())
        .isEqualTo(LatencyPredictor.latencyMs(heatmap, row, REQUEST));
  }

  private static InstanceScore endpoint(final String id, final int waiting, final double kvCacheUsage) {
    final InstanceScore row = row(id);
    row.setQueueLength(waiting);
    row.setVramFragmentation(kvCacheUsage);
    return row;
  }
}
