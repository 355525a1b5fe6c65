package io.zerolayer.router.policy;

import static io.zerolayer.router.policy.Rows.REQUEST;
import static io.zerolayer.router.policy.Rows.heatmap;
import static io.zerolayer.router.policy.Rows.loaded;
import static io.zerolayer.router.policy.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PowerOfTwoChoicesPolicyTest {

  private static final Heatmap FOUR = heatmap(loaded("a", 4, 0), loaded("b", 1, 1), loaded("c", 0, 0),
      loaded("d", 3, 3));

  @Test
  void shouldRankNothingWhenTheHeatmapKnowsNoInstance() {
    assertThat(new PowerOfTwoChoicesPolicy(new Random(1)).rank(REQUEST, Heatmap.empty())).isEmpty();
  }

  @Test
  void shouldRankTheOnlyInstanceAlone() {
    assertThat(new PowerOfTwoChoicesPolicy(new Random(1)).rank(REQUEST, heatmap(row("solo"))))
        .extracting(Candidate::instanceId).containsExactly("solo");
  }

  @Test
  void shouldRankTwoDistinctDrawsTheLessLoadedFirst() {
    final PowerOfTwoChoicesPolicy policy = new PowerOfTwoChoicesPolicy(new Random(7));

    for (int i = 0; i < 200; i++) {
      final List<Candidate> ranked = policy.rank(REQUEST, FOUR);
      assertThat(ranked).hasSize(2);
      assertThat(ranked.get(0).instanceId()).isNotEqualTo(ranked.get(1).instanceId());
      assertThat(ranked.get(0).cost()).isLessThanOrEqualTo(ranked.get(1).cost());
    }
  }

  @Test
  void shouldDrawTheSameInstancesFromTheSameSeed() {
    final PowerOfTwoChoicesPolicy first = new PowerOfTwoChoicesPolicy(new Random(42));
    final PowerOfTwoChoicesPolicy second = new PowerOfTwoChoicesPolicy(new Random(42));

    for (int i = 0; i < 50; i++) {
      assertThat(second.rank(REQUEST, FOUR)).isEqualTo(first.rank(REQUEST, FOUR));
    }
  }

  @Test
  void shouldDrawInInstanceIdOrderAndKeepTheFirstDrawOnATie() {
    final Heatmap tied = heatmap(row("d"), row("b"), row("a"), row("c"));
    final Random draws = new Random(3);
    final PowerOfTwoChoicesPolicy policy = new PowerOfTwoChoicesPolicy(new Random(3));
    final List<String> ids = List.of("a", "b", "c", "d");

    for (int i = 0; i < 20; i++) {
      final int first = draws.nextInt(4);
      final int other = draws.nextInt(3);
      final String expectedSecond = ids.get(other >= first ? other + 1 : other);
      assertThat(policy.rank(REQUEST, tied)).extracting(Candidate::instanceId)
          .containsExactly(ids.get(first), expectedSecond);
    }
  }

  @Test
  void shouldEventuallyDrawEveryInstance() {
    final PowerOfTwoChoicesPolicy policy = new PowerOfTwoChoicesPolicy(new Random(11));
    final Set<String> drawn = new HashSet<>();

    for (int i = 0; i < 100; i++) {
      policy.rank(REQUEST, FOUR).forEach(candidate -> drawn.add(candidate.instanceId()));
    }

    assertThat(drawn).containsExactlyInAnyOrder("a", "b", "c", "d");
  }

  @Property
  void shouldNeverRankTheMoreLoadedDrawFirst(
      @ForAll @Size(min = 2, max = 20) List<@IntRange(min = 0, max = 50) Integer> loads,
      @ForAll long seed) {
    final List<InstanceScore> rows = new ArrayList<>();
    for (int i = 0; i < loads.size(); i++) {
      rows.add(loaded("gpu-" + i, loads.get(i) / 2, loads.get(i) - loads.get(i) / 2));
    }

    final List<Candidate> ranked = new PowerOfTwoChoicesPolicy(new Random(seed))
        .rank(REQUEST, heatmap(rows.toArray(InstanceScore[]::new)));

    assertThat(ranked).hasSize(2);
    assertThat(ranked.get(0).instanceId()).isNotEqualTo(ranked.get(1).instanceId());
    assertThat(ranked.get(0).cost()).isLessThanOrEqualTo(ranked.get(1).cost());
  }
}
