package io.zerolayer.tokenbuffer.internal;

import static io.zerolayer.tokenbuffer.internal.SequenceLedgerTest.chunk;
import static io.zerolayer.tokenbuffer.internal.SequenceLedgerTest.decide;
import static io.zerolayer.tokenbuffer.internal.SequenceLedgerTest.decision;
import static io.zerolayer.tokenbuffer.internal.SequenceLedgerTest.from;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.tokenbuffer.internal.SequenceLedger.Step;
import io.zerolayer.tokenbuffer.internal.SequenceLedger.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class SequenceDecisionsTest {

  private static final long NOW = 1_000L;

  @Test
  void shouldLetABackupTakeTheStreamOverBeforeItsCutOverIsReadAndCountItAsStartedWhenItIs() {
    final SequenceState first = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final SequenceState two = SequenceLedger.accept(first, chunk(1, 0, "a", "b"), 0, NOW).state();
    final TokenChunk backup = chunk(2, 2, "c", "d");
    backup.setInstanceId("gpu-2");

    final Step early = SequenceLedger.accept(two, backup, 0, NOW);
    assertThat(early.verdict()).isEqualTo(Verdict.ACCEPTED);
    assertThat(early.response().getStartIndex()).isEqualTo(2);
    assertThat(early.response().getTokens()).containsExactly("c", "d");
    assertThat(early.appended().getTokens()).containsExactly("c", "d");
    assertThat(early.state().getTokenCount()).isEqualTo(4);

    final RoutingDecision cutover = decision(2, RoutingOutcome.CUTOVER);
    cutover.setInstanceId("gpu-2");
    final Step decided = decide(early.state(), cutover);

    assertThat(decided.response()).isNull();
    assertThat(decided.state().getTokenCount()).isEqualTo(4);
    assertThat(StallDetector.started(decided.state())).isTrue();
  }

  @Test
  void shouldDueTheFirstTokenByTheDecisionsPredictionOnTokenBuffersClock() {
    final RoutingDecision predicted = decision(1, RoutingOutcome.DIRECT);
    predicted.setPredictedTtftMs(420.4);

    assertThat(SequenceDecisions.decide(null, predicted, count -> List.of(), NOW).state().getFirstTokenDueMs())
        .isEqualTo(NOW + 420);
    assertThat(decide(null, decision(2, RoutingOutcome.CUTOVER)).state().getFirstTokenDueMs())
        .as("a decision without a prediction sets no due time").isZero();
  }

  @Test
  void shouldHoldTokensThatArriveBeforeTheirDecisionAndEmitThemWithIt() {
    final Step held = SequenceLedger.accept(null, chunk(1, 0, "a", "b"), 0, NOW);
    assertThat(held.verdict()).isEqualTo(Verdict.HELD);
    assertThat(held.response()).isNull();

    assertThat(held.appended().getTokens()).containsExactly("a", "b");

    final Step decided = SequenceDecisions.decide(held.state(), decision(1, RoutingOutcome.DIRECT),
        count -> List.of("a", "b").subList(0, count), NOW);

    assertThat(decided.response().getTokens()).containsExactly("a", "b");
    assertThat(decided.response().getStartIndex()).isZero();
  }

  @Test
  void shouldIgnoreACutOverDecidedWhileTheAttemptWasFinishing() {
    final SequenceState decided = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final TokenChunk last = chunk(1, 0, "a");
    last.setLast(true);
    final SequenceState finished = SequenceLedger.accept(decided, last, 0, NOW).state();

    final Step late = decide(finished, decision(2, RoutingOutcome.CUTOVER));

    assertThat(late.verdict()).isEqualTo(Verdict.FINISHED);
    assertThat(late.response()).isNull();
  }

  @Test
  void shouldEndAThrottledStalledSequenceWhereTheRoutersEndChunkClosesItsStreamInTheLog() {
    final SequenceState two = SequenceLedger.accept(decide(null, decision(1, RoutingOutcome.DIRECT)).state(),
        chunk(1, 0, "a", "b"), 0, NOW).state();
    final RoutingDecision throttled = throttledCutover();

    // The throttle is read first: the stalled attempt's tokens written before the end still join.
    final Step waiting = decide(two, throttled);
    final Step late = SequenceLedger.accept(waiting.state(), chunk(1, 2, "c"), 1, NOW);
    final Step ended = SequenceLedger.accept(late.state(), end(2), 2, NOW);
    final Step after = SequenceLedger.accept(ended.state(), chunk(1, 3, "d"), 3, NOW);

    assertThat(waiting.response()).isNull();
    assertThat(waiting.state().getOwner()).as("nothing left to watch").isNull();
    assertThat(late.response().getTokens()).containsExactly("c");
    assertThat(ended.state().getStatus()).isEqualTo(SequenceStatus.FINISHED);
    assertThat(ended.response().getStartIndex()).isEqualTo(3);
    assertThat(ended.response().getLast()).isTrue();
    assertThat(ended.response().getOutcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(ended.response().getReason()).isEqualTo("gpu-1 stalled and no other instance can take it");
    assertThat(ended.response().getRetryAfterMs()).isEqualTo(1_500L);
    assertThat(after.verdict()).isEqualTo(Verdict.FINISHED);
  }

  @Test
  void shouldEndAThrottledStalledSequenceWhenItsEndChunkIsReadBeforeTheThrottle() {
    final SequenceState two = SequenceLedger.accept(decide(null, decision(1, RoutingOutcome.DIRECT)).state(),
        chunk(1, 0, "a", "b"), 0, NOW).state();

    final Step closed = SequenceLedger.accept(two, end(2), 1, NOW);
    final Step decided = decide(closed.state(), throttledCutover());

    assertThat(closed.response()).as("how it ends is the throttle's to say").isNull();
    assertThat(decided.state().getStatus()).isEqualTo(SequenceStatus.FINISHED);
    assertThat(decided.response().getStartIndex()).isEqualTo(2);
    assertThat(decided.response().getOutcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(decided.response().getFinishReason()).isEqualTo("throttled");
    assertThat(decided.response().getRetryAfterMs()).isEqualTo(1_500L);
  }

  @Test
  void shouldEndWithItsCutOverABackupThatFinishedBeforeItsDecisionWasRead() {
    final SequenceState two = SequenceLedger.accept(decide(null, decision(1, RoutingOutcome.DIRECT)).state(),
        chunk(1, 0, "a", "b"), 0, NOW).state();
    final TokenChunk rest = from("gpu-2", chunk(2, 2, "c"));
    rest.setLast(true);

    final Step early = SequenceLedger.accept(two, rest, 1, NOW);
    final RoutingDecision cutover = decision(2, RoutingOutcome.CUTOVER);
    cutover.setInstanceId("gpu-2");
    final Step decided = decide(early.state(), cutover);

    assertThat(early.response().getTokens()).containsExactly("c");
    assertThat(early.response().getLast()).isFalse();
    assertThat(decided.response().getLast()).isTrue();
    assertThat(decided.response().getStartIndex()).isEqualTo(3);
    assertThat(decided.response().getOutcome()).isEqualTo(RoutingOutcome.CUTOVER);
    assertThat(decided.response().getFinishReason()).isEqualTo("stop");
  }

  private static RoutingDecision throttledCutover() {
    final RoutingDecision throttled = decision(2, RoutingOutcome.THROTTLED);
    throttled.setInstanceId(null);
    throttled.setReason("gpu-1 stalled and no other instance can take it");
    throttled.setRetryAfterMs(1_500L);
    return throttled;
  }

  /** A router's end of the stream, as written with a throttle of epoch {@code epoch}. */
  private static TokenChunk end(final int epoch) {
    final TokenChunk end = chunk(epoch, 0);
    end.setLast(true);
    end.setFinishReason("throttled");
    end.setAttemptId("ended by router r-1");
    return end;
  }

  @Test
  void shouldStartAfreshWhenANewRequestReusesAFinishedSequenceId() {
    final SequenceState throttled = decide(null, decision(0, RoutingOutcome.THROTTLED)).state();
    final RoutingDecision again = decision(0, RoutingOutcome.THROTTLED);
    again.setRequestOffset(99);

    final Step step = decide(throttled, again);

    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.THROTTLED);
  }

  @Test
  void shouldAnswerAnotherRequestRefusedWithALiveSequencesIdAloneAndLeaveTheSequenceAsItIs() {
    final SequenceState live = SequenceLedger.accept(decide(null, decision(1, RoutingOutcome.DIRECT)).state(),
        chunk(1, 0, "a"), 0, NOW).state();
    final RoutingDecision refused = decision(0, RoutingOutcome.REJECTED);
    refused.setInstanceId(null);
    refused.setReason("sequence id 'seq-1' is in use");
    refused.setRequestPartition(2);
    refused.setRequestOffset(77);

    final Step step = decide(live, refused);

    assertThat(step.state()).as("the sequence is untouched").isNull();
    assertThat(step.response().getLast()).isTrue();
    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(step.response().getReason()).contains("in use");
    assertThat(step.response().getRequestPartition()).isEqualTo(2);
    assertThat(step.response().getRequestOffset()).isEqualTo(77);
  }

  @Test
  void shouldAnswerARejectedRequestAtOnceWithItsReason() {
    final RoutingDecision rejected = decision(0, RoutingOutcome.REJECTED);
    rejected.setReason("maxOutputTokens must be between 1 and 4096");

    final Step step = decide(null, rejected);

    assertThat(step.response().getLast()).isTrue();
    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(step.response().getReason()).contains("maxOutputTokens");
  }

  @Test
  void shouldEndARequestWhoseOutcomeANewerRouterAddedWhenNothingWasDispatched() {
    final RoutingDecision unknown = decision(0, RoutingOutcome.UNKNOWN);
    unknown.setInstanceId(null);
    unknown.setReason("queued for a later slot");

    final Step step = decide(null, unknown);

    assertThat(step.response().getLast()).isTrue();
    assertThat(step.response().getReason()).isEqualTo("queued for a later slot");
    assertThat(step.state().getStatus()).isEqualTo(SequenceStatus.FINISHED);
  }

  @Test
  void shouldKeepAFailureReportedBeforeTheDecisionForTheAttempt() {
    final TokenChunk failed = chunk(1, 0);
    failed.setFailure("CUDA out of memory");
    final Step held = SequenceLedger.accept(null, failed, 0, NOW);

    final Step decided = decide(held.state(), decision(1, RoutingOutcome.DIRECT));

    assertThat(decided.state().getAttemptFailure()).isEqualTo("CUDA out of memory");
    assertThat(decided.state().getStatus()).isEqualTo(SequenceStatus.STREAMING);
  }

  @Test
  void shouldKeepAFailureOfTheNextAttemptReportedBeforeItsDecisionForThatAttempt() {
    // Given attempt 1 on gpu-1 decided, when attempt 2's worker on gpu-2 fails before its decision is read
    final SequenceState first = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final TokenChunk failed = from("gpu-2", chunk(2, 0));
    failed.setFailure("CUDA out of memory");
    final Step early = SequenceLedger.accept(first, failed, 0, NOW);
    final RoutingDecision second = decision(2, RoutingOutcome.CUTOVER);
    second.setInstanceId("gpu-2");

    final Step decided = decide(early.state(), second);

    assertThat(early.verdict()).isEqualTo(Verdict.FAILED);
    assertThat(early.state().getAttemptFailure()).as("attempt 1 did not fail").isNull();
    assertThat(decided.state().getAttemptFailure()).isEqualTo("CUDA out of memory");
    assertThat(decided.state().getEarlyFailureEpoch()).isZero();
    final RoutingDecision elsewhere = decision(2, RoutingOutcome.CUTOVER);
    elsewhere.setInstanceId("gpu-3");
    assertThat(decide(early.state(), elsewhere).state().getAttemptFailure())
        .as("another instance's attempt of the same epoch").isNull();
  }
}
