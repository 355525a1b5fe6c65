package io.zerolayer.router.policy;

import static io.zerolayer.router.policy.Rows.REQUEST;
import static io.zerolayer.router.policy.Rows.heatmap;
import static io.zerolayer.router.policy.Rows.loaded;
import static io.zerolayer.router.policy.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.constraints.UniqueElements;
import org.junit.jupiter.api.Test;

class RoundRobinPolicyTest {

  private final RoundRobinPolicy policy = new RoundRobinPolicy();

  @Test
  void shouldRankNothingWhenTheHeatmapKnowsNoInstance() {
    assertThat(policy.rank(REQUEST, Heatmap.empty())).isEmpty();
  }

  @Test
  void shouldLeadWithTheNextInstanceInIdOrderOnEachCall() {
    final Heatmap heatmap = heatmap(row("c"), row("a"), row("b"));

    assertThat(leaders(heatmap, 4)).containsExactly("a", "b", "c", "a");
  }

  @Test
  void shouldRankTheWholeCycleFromTheNextInstanceOn() {
    final Heatmap heatmap = heatmap(row("a"), row("b"), row("c"));
    policy.rank(REQUEST, heatmap);

    final List<Candidate> ranked = policy.rank(REQUEST, heatmap);

    assertThat(ranked).extracting(Candidate::instanceId).containsExactly("b", "c", "a");
    assertThat(ranked).extracting(Candidate::cost).containsExactly(0.0, 1.0, 2.0);
  }

  @Test
  void shouldIgnoreLoadAndHealthScores() {
    final InstanceScore ejected = loaded("a", 8, 40);
    ejected.setState(InstanceState.EJECTED);
    ejected.setWeight(0.0);

    assertThat(leaders(heatmap(ejected, row("b")), 2)).containsExactly("a", "b");
  }

  @Test
  void shouldGiveAJoiningInstanceItsTurnInIdOrder() {
    policy.rank(REQUEST, heatmap(row("a"), row("b"), row("c")));

    assertThat(leaders(heatmap(row("a"), row("ab"), row("b"), row("c")), 3)).containsExactly("ab", "b", "c");
  }

  @Test
  void shouldContinueAfterALeaderThatLeft() {
    final Heatmap all = heatmap(row("a"), row("b"), row("c"));
    policy.rank(REQUEST, all);
    policy.rank(REQUEST, all);

    assertThat(leaders(heatmap(row("a"), row("c")), 2)).containsExactly("c", "a");
  }

  @Property
  void shouldLeadWithEveryInstanceOncePerCycle(
      @ForAll @Size(min = 1, max = 30) @UniqueElements List<@AlphaChars @StringLength(min = 1, max = 6) String> ids,
      @ForAll @IntRange(min = 0, max = 40) int callsBefore) {
    final RoundRobinPolicy fresh = new RoundRobinPolicy();
    final Heatmap heatmap = heatmap(ids.stream().map(Rows::row).toArray(InstanceScore[]::new));
    for (int i = 0; i < callsBefore; i++) {
      fresh.rank(REQUEST, heatmap);
    }

    final List<String> cycle = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      final List<Candidate> ranked = fresh.rank(REQUEST, heatmap);
      assertThat(ranked).extracting(Candidate::instanceId).containsExactlyInAnyOrderElementsOf(ids);
      cycle.add(ranked.get(0).instanceId());
    }

    assertThat(cycle).containsExactlyInAnyOrderElementsOf(ids);
  }

  private List<String> leaders(final Heatmap heatmap, final int calls) {
    final List<String> leaders = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      leaders.add(policy.rank(REQUEST, heatmap).get(0).instanceId());
    }
    return leaders;
  }
}
