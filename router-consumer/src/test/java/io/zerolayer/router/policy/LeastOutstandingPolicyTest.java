package io.zerolayer.router.policy;

import static io.zerolayer.router.policy.Rows.NOW_MS;
import static io.zerolayer.router.policy.Rows.REQUEST;
import static io.zerolayer.router.policy.Rows.heatmap;
import static io.zerolayer.router.policy.Rows.loaded;
import static io.zerolayer.router.policy.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.router.internal.LocalDispatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeastOutstandingPolicyTest {

  private final LeastOutstandingPolicy policy = new LeastOutstandingPolicy();

  @Test
  void shouldRankNothingWhenTheHeatmapKnowsNoInstance() {
    assertThat(policy.rank(REQUEST, Heatmap.empty())).isEmpty();
  }

  @Test
  void shouldRankFewestRunningPlusQueuedFirst() {
    final Heatmap heatmap = heatmap(loaded("a", 3, 2), loaded("b", 1, 1), loaded("c", 0, 4));

    final List<Candidate> ranked = policy.rank(REQUEST, heatmap);

    assertThat(ranked).extracting(Candidate::instanceId).containsExactly("b", "c", "a");
    assertThat(ranked).extracting(Candidate::cost).containsExactly(2.0, 4.0, 5.0);
  }

  @Test
  void shouldIgnoreWhatTheRouterJustCutAwayFromAsTheBalancerItImitatesWould() {
    final Heatmap heatmap = heatmap(loaded("a", 0, 0), loaded("b", 2, 0)).withCutAway(Set.of("a"));

    assertThat(policy.rank(REQUEST, heatmap)).extracting(Candidate::instanceId).containsExactly("a", "b");
  }

  @Test
  void shouldCountThisRoutersDispatchesTheHeatmapDoesNotShowYet() {
    final LocalDispatches dispatches = new LocalDispatches();
    dispatches.record("a", NOW_MS + 10);
    dispatches.record("a", NOW_MS + 20);
    final Heatmap heatmap = heatmap(loaded("a", 1, 0), loaded("b", 2, 0));

    final List<Candidate> ranked = policy.rank(REQUEST, dispatches.applyTo(heatmap, NOW_MS + 30));

    assertThat(ranked).extracting(Candidate::instanceId).containsExactly("b", "a");
    assertThat(ranked).extracting(Candidate::cost).containsExactly(2.0, 3.0);
  }

  @Test
  void shouldTakeTiedInstancesInTurn() {
    final Heatmap heatmap = heatmap(loaded("c", 1, 0), loaded("a", 1, 0), loaded("b", 1, 0), loaded("busy", 5, 5));

    final List<String> leaders = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      leaders.add(policy.rank(REQUEST, heatmap).get(0).instanceId());
    }

    assertThat(leaders).containsExactly("a", "b", "c", "a");
  }

  @Test
  void shouldIgnoreHealthScores() {
    final InstanceScore ejected = row("idle-but-ejected");
    ejected.setState(InstanceState.EJECTED);
    ejected.setWeight(0.0);

    assertThat(policy.rank(REQUEST, heatmap(ejected, loaded("healthy", 1, 0))))
        .extracting(Candidate::instanceId).containsExactly("idle-but-ejected", "healthy");
  }

  @Test
  void shouldNeverCountANegativeReportAsFreeCapacity() {
    final Heatmap heatmap = heatmap(loaded("odd", 2, -5), loaded("b", 1, 0));

    assertThat(policy.rank(REQUEST, heatmap)).extracting(Candidate::instanceId).containsExactly("b", "odd");
  }
}
