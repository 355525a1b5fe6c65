package io.zerolayer.router.policy;

import static io.zerolayer.router.policy.Rows.loaded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.LatencyModel;
import org.junit.jupiter.api.Test;

/** How Zerolayer's policy weighs the service objective against the predicted end-to-end latency. */
class ServiceObjectiveRankingTest {

  private static final RequestProfile REQUEST = new RequestProfile("seq-1", 200, 100);

  /**
   * A fast instance with a full batch of 4 and 6 queued: a usual request (256 in, 128 out) takes
   * 40 + 25.6 + 128 * 10.5 = 1,409.6 ms, so the request waits 7 * 1,409.6 / 4 = 2,466.8 ms, then
   * starts at 60 ms and decodes 100 tokens at 10.5 ms: 3,576.8 ms end to end, first token at
   * 2,526.8 ms.
   */
  private static InstanceScore fastQueued() {
    final InstanceScore row = loaded("fast", 4, 6);
    row.setLatencyModel(LatencyModel.newBuilder(row.getLatencyModel()).setDecodeStepBaseMs(8)
        .setDecodeStepPerSequenceMs(0.5).build());
    return row;
  }

  /** An idle slow instance, of another model class so that the two fits stay apart: first token at 60 ms. */
  private static InstanceScore slowIdle(final double msPerOutputToken) {
    final InstanceScore row = loaded("slow", 0, 0);
    row.setInstanceClass("slow");
    row.getLatencyModel().setLatencyPerOutputTokenMs(msPerOutputToken);
    return row;
  }

  @Test
  void shouldStartARequestWithinItsObjectiveRatherThanQueueItForAShorterEndToEnd() {
    // The slow one: 60 + 40 * 100 = 4,060 ms end to end, more than the fast one's 3,576.8, but its
    // first token at 60 ms and 40 ms a token meet the objective; the fast one's first token does not.
    final Heatmap fleet = Rows.heatmap(fastQueued(), slowIdle(40));

    assertThat(new LatencyAwarePolicy().rank(REQUEST, fleet)).extracting(Candidate::instanceId)
        .containsExactly("slow", "fast");
    assertThat(new LatencyAwarePolicy().rank(REQUEST, fleet).get(1).cost())
        .as("the fast one is still the cheaper by its cost").isLessThan(4_060);
  }

  @Test
  void shouldHandOnTheQueueWaitItRankedEachInstanceBy() {
    final Heatmap fleet = Rows.heatmap(fastQueued(), slowIdle(40));

    assertThat(new LatencyAwarePolicy().rank(REQUEST, fleet)).allSatisfy(candidate ->
        assertThat(candidate.queueWaitMs(fleet)).as(candidate.instanceId()).isEqualTo(candidate.queueWaitMs())
            .isEqualTo(LatencyPredictor.queueWaitMs(fleet, candidate.instanceId())));
    assertThat(new LatencyAwarePolicy().rank(REQUEST, fleet).get(1).queueWaitMs()).isCloseTo(2_466.8, within(0.1));
  }

  @Test
  void shouldRankByCostAloneWhenNoInstanceWouldMeetTheObjective() {
    // 60 ms a token on the slow one misses the objective's 50 as the fast one's queue does.
    final Heatmap fleet = Rows.heatmap(fastQueued(), slowIdle(60));

    assertThat(new LatencyAwarePolicy().rank(REQUEST, fleet)).extracting(Candidate::instanceId)
        .containsExactly("fast", "slow");
  }

  @Test
  void shouldRankByCostAloneWhenEveryInstanceWouldMeetALooserObjective() {
    final Heatmap fleet = Rows.heatmap(fastQueued(), slowIdle(40));

    assertThat(new LatencyAwarePolicy(new ServiceObjective(3_000, 50)).rank(REQUEST, fleet))
        .extracting(Candidate::instanceId).containsExactly("fast", "slow");
  }

  @Test
  void shouldCountTheLayersHandOffInTheTimeToTheFirstToken() {
    // 60 ms to the first token on either; the hand-off of 960 ms more puts "late" past 1,000 ms.
    final InstanceScore late = loaded("late", 0, 0);
    late.getLatencyModel().setHandoffMs(960.0);
    late.getLatencyModel().setLatencyPerOutputTokenMs(10.0);
    late.setInstanceClass("other");
    final Heatmap fleet = Rows.heatmap(late, slowIdle(40));

    assertThat(new LatencyAwarePolicy().rank(REQUEST, fleet)).extracting(Candidate::instanceId)
        .containsExactly("slow", "late");
  }

  @Test
  void shouldRefuseAnObjectiveThatIsNotPositive() {
    assertThatThrownBy(() -> new ServiceObjective(0, 50)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TTFT 0.0 ms");
  }
}
