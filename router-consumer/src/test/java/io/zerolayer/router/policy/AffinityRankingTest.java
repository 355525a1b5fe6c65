package io.zerolayer.router.policy;

import static io.zerolayer.router.policy.Rows.heatmap;
import static io.zerolayer.router.policy.Rows.loaded;
import static io.zerolayer.router.policy.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How Zerolayer's policy and the prefix-aware baseline weigh what the instances' prefix caches
 * hold, and how Zerolayer's keeps a session on its instance.
 */
class AffinityRankingTest {

  /** A 2,000-token prompt of 40 blocks; "b" holds 36 of them, "c" 10. */
  private static final RequestProfile LONG_PROMPT = new RequestProfile("seq-1", 2_000, 20,
      held(40, Map.of("b", 36, "c", 10)));

  @Test
  void shouldPreferTheInstanceThatWouldPrefillLeast() {
    final Heatmap fleet = heatmap(row("a"), row("b"), row("c"));

    assertThat(new LatencyAwarePolicy().rank(LONG_PROMPT, fleet)).extracting(Candidate::instanceId)
        .containsExactly("b", "c", "a");
  }

  @Test
  void shouldStopCountingACachedPrefixOnAnInstanceFarBusierThanTheLeastBusy() {
    final InstanceScore hot = loaded("b", LatencyAwarePolicy.PREFIX_LOAD_MARGIN + 1, 0);
    final Heatmap fleet = heatmap(row("a"), hot);

    assertThat(new LatencyAwarePolicy().rank(LONG_PROMPT, fleet).get(0).instanceId()).isEqualTo("a");
  }

  @Test
  void shouldLetTheBaselineFollowTheLongestMatchOfAtLeastHalfThePromptWhileBalanced() {
    final Heatmap fleet = heatmap(loaded("a", 0, 0), loaded("b", 3, 0), loaded("c", 1, 0));

    assertThat(new PrefixAwarePolicy().rank(LONG_PROMPT, fleet)).extracting(Candidate::instanceId)
        .containsExactly("b", "a", "c");
  }

  @Test
  void shouldLetTheBaselineFallBackToTheLeastBusyWhenTheFleetIsOutOfBalance() {
    final Heatmap fleet = heatmap(loaded("a", 0, 0), loaded("b", PrefixAwarePolicy.BALANCE_MARGIN + 1, 0),
        loaded("c", 1, 0));

    assertThat(new PrefixAwarePolicy().rank(LONG_PROMPT, fleet)).extracting(Candidate::instanceId)
        .containsExactly("a", "c", "b");
  }

  @Test
  void shouldKeepASessionOnItsInstanceWhileItIsHealthyAndNotFarBusier() {
    final RequestProfile next = new RequestProfile("seq-2", 100, 20, PrefixMatch.NONE, "c");
    final Heatmap fleet = heatmap(row("a"), row("b"), loaded("c", 2, 0));

    assertThat(new LatencyAwarePolicy().rank(next, fleet).get(0).instanceId()).isEqualTo("c");
  }

  @Test
  void shouldLetASessionGoElsewhereWhenItsInstanceIsDegradedOrFarBusier() {
    final RequestProfile next = new RequestProfile("seq-2", 100, 20, PrefixMatch.NONE, "c");
    final InstanceScore lossy = row("c");
    lossy.setNetworkDegraded(true);

    assertThat(new LatencyAwarePolicy().rank(next, heatmap(row("a"), lossy)).get(0).instanceId()).isEqualTo("a");
    assertThat(new LatencyAwarePolicy().rank(next, heatmap(row("a"),
        loaded("c", LatencyAwarePolicy.PREFIX_LOAD_MARGIN + 1, 0))).get(0).instanceId()).isEqualTo("a");
  }

  private static PrefixMatch held(final int blocks, final Map<String, Integer> heldBy) {
    return new PrefixMatch() {
      @Override
      public int blocks() {
        return blocks;
      }

      @Override
      public int heldBlocks(final String instanceId) {
        return heldBy.getOrDefault(instanceId, 0);
      }

      @Override
      public int cachedTokens(final String instanceId) {
        return 2_000 * heldBlocks(instanceId) / blocks;
      }
    };
  }
}
