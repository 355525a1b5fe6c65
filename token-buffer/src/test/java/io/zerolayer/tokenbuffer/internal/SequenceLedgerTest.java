package io.zerolayer.tokenbuffer.internal;

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

class SequenceLedgerTest {

  private static final long NOW = 1_000L;

  @Test
  void shouldEmitExactlyTheNewTokensWhenAChunkOverlapsWhatWasAccepted() {
    final SequenceState decided = SequenceLedger.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState two = SequenceLedger.accept(decided, chunk(1, 0, "a", "b"), NOW).state();

    final Step step = SequenceLedger.accept(two, chunk(1, 1, "b", "c", "d"), NOW);

    assertThat(step.verdict()).isEqualTo(Verdict.ACCEPTED);
    assertThat(step.response().getStartIndex()).isEqualTo(2);
    assertThat(step.response().getTokens()).containsExactly("c", "d");
    assertThat(step.state().getTokens()).containsExactly("a", "b", "c", "d");
  }

  @Test
  void shouldDropAChunkWhoseTokensWereAllAcceptedBefore() {
    final SequenceState decided = SequenceLedger.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState two = SequenceLedger.accept(decided, chunk(1, 0, "a", "b"), NOW).state();

    assertThat(SequenceLedger.accept(two, chunk(1, 0, "a", "b"), NOW).verdict()).isEqualTo(Verdict.DUPLICATE);
  }

  @Test
  void shouldTakeAnEmptyChunkAsTheWorkersHeartbeat() {
    final SequenceState decided = SequenceLedger.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();

    final Step step = SequenceLedger.accept(decided, chunk(1, 0), NOW + 500);

    assertThat(step.verdict()).isEqualTo(Verdict.HEARTBEAT);
    assertThat(step.response()).isNull();
    assertThat(step.state().getLastHeartbeatMs()).isEqualTo(NOW + 500);
  }

  @Test
  void shouldRefuseAChunkThatLeavesAGap() {
    final SequenceState decided = SequenceLedger.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();

    final Step step = SequenceLedger.accept(decided, chunk(1, 3, "x"), NOW);

    assertThat(step.verdict()).isEqualTo(Verdict.GAP);
    assertThat(step.response()).isNull();
  }

  @Test
  void shouldFenceChunksOfAnOlderEpoch() {
    final SequenceState first = SequenceLedger.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState second = SequenceLedger.decide(first, decision(2, RoutingOutcome.CUTOVER), NOW).state();

    assertThat(SequenceLedger.accept(second, chunk(1, 0, "stale"), NOW).verdict()).isEqualTo(Verdict.STALE_EPOCH);
  }

  @Test
  void shouldHoldABackupsChunksThatArriveBeforeTheCutOverAndReplayThemWithIt() {
    final SequenceState first = SequenceLedger.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState two = SequenceLedger.accept(first, chunk(1, 0, "a", "b"), NOW).state();
    final TokenChunk backup = chunk(2, 2, "c", "d");
    backup.setInstanceId("gpu-2");

    final Step early = SequenceLedger.accept(two, backup, NOW);
    assertThat(early.verdict()).isEqualTo(Verdict.HELD);
    assertThat(early.response()).isNull();

    final RoutingDecision cutover = decision(2, RoutingOutcome.CUTOVER);
    cutover.setInstanceId("gpu-2");
    final Step decided = SequenceLedger.decide(early.state(), cutover, NOW);

    assertThat(decided.response().getStartIndex()).isEqualTo(2);
    assertThat(decided.response().getTokens()).containsExactly("c", "d");
    assertThat(decided.state().getTokens()).containsExactly("a", "b", "c", "d");
    assertThat(decided.state().getAhead()).isEmpty();
  }

  @Test
  void shouldHoldTokensThatArriveBeforeTheirDecisionAndEmitThemWithIt() {
    final Step held = SequenceLedger.accept(null, chunk(1, 0, "a", "b"), NOW);
    assertThat(held.verdict()).isEqualTo(Verdict.HELD);
    assertThat(held.response()).isNull();

    final Step decided = SequenceLedger.decide(held.state(), decision(1, RoutingOutcome.DIRECT), NOW);

    assertThat(decided.response().getTokens()).containsExactly("a", "b");
    assertThat(decided.response().getStartIndex()).isZero();
  }

  @Test
  void shouldCloseTheStreamWithTheOutcomeOnTheLastChunk() {
    final SequenceState decided = SequenceLedger.decide(null, decision(1, RoutingOutcome.PREWARMED), NOW).state();
    final SequenceState one = SequenceLedger.accept(decided, chunk(1, 0, "a"), NOW).state();
    final TokenChunk last = chunk(1, 1);
    last.setLast(true);
    last.setFinishReason("length");

    final Step step = SequenceLedger.accept(one, last, NOW);

    assertThat(step.response().getLast()).isTrue();
    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.PREWARMED);
    assertThat(step.response().getFinishReason()).isEqualTo("length");
    assertThat(step.response().getOutputTokens()).isEqualTo(1);
    assertThat(step.state().getStatus()).isEqualTo(SequenceStatus.FINISHED);
    assertThat(SequenceLedger.accept(step.state(), chunk(1, 1, "late"), NOW).verdict()).isEqualTo(Verdict.FINISHED);
  }

  @Test
  void shouldIgnoreACutOverDecidedWhileTheAttemptWasFinishing() {
    final SequenceState decided = SequenceLedger.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final TokenChunk last = chunk(1, 0, "a");
    last.setLast(true);
    final SequenceState finished = SequenceLedger.accept(decided, last, NOW).state();

    final Step late = SequenceLedger.decide(finished, decision(2, RoutingOutcome.CUTOVER), NOW);

    assertThat(late.verdict()).isEqualTo(Verdict.FINISHED);
    assertThat(late.response()).isNull();
  }

  @Test
  void shouldStartAfreshWhenANewRequestReusesAFinishedSequenceId() {
    final SequenceState throttled = SequenceLedger.decide(null, decision(0, RoutingOutcome.THROTTLED), NOW).state();
    final RoutingDecision again = decision(0, RoutingOutcome.THROTTLED);
    again.setRequestOffset(99);

    final Step step = SequenceLedger.decide(throttled, again, NOW);

    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.THROTTLED);
  }

  @Test
  void shouldAnswerARejectedRequestAtOnceWithItsReason() {
    final RoutingDecision rejected = decision(0, RoutingOutcome.REJECTED);
    rejected.setReason("maxOutputTokens must be between 1 and 4096");

    final Step step = SequenceLedger.decide(null, rejected, NOW);

    assertThat(step.response().getLast()).isTrue();
    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(step.response().getReason()).contains("maxOutputTokens");
  }

  @Test
  void shouldKeepAFailureReportedBeforeTheDecisionForTheAttempt() {
    final TokenChunk failed = chunk(1, 0);
    failed.setFailure("CUDA out of memory");
    final Step held = SequenceLedger.accept(null, failed, NOW);

    final Step decided = SequenceLedger.decide(held.state(), decision(1, RoutingOutcome.DIRECT), NOW);

    assertThat(decided.state().getAttemptFailure()).isEqualTo("CUDA out of memory");
    assertThat(decided.state().getStatus()).isEqualTo(SequenceStatus.STREAMING);
  }

  @Test
  void shouldEndAFailedAttemptsSequenceWithAnErrorAfterTheTokensItHadWhenNotResuming() {
    final SequenceState decided = SequenceLedger.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState two = SequenceLedger.accept(decided, chunk(1, 0, "a", "b"), NOW).state();
    final TokenChunk failed = chunk(1, 2);
    failed.setFailure("CUDA out of memory");

    final Step step = SequenceLedger.endIfFailed(SequenceLedger.accept(two, failed, NOW), NOW);

    assertThat(step.state().getStatus()).isEqualTo(SequenceStatus.FINISHED);
    assertThat(step.response().getLast()).isTrue();
    assertThat(step.response().getStartIndex()).isEqualTo(2);
    assertThat(step.response().getTokens()).isEmpty();
    assertThat(step.response().getFinishReason()).isEqualTo("error");
    assertThat(step.response().getReason()).isEqualTo("the worker reported the attempt failed: CUDA out of memory");
    assertThat(step.response().getOutputTokens()).isEqualTo(2);
  }

  @Test
  void shouldLeaveAStepWithoutAFailedAttemptAsItIs() {
    final Step decided = SequenceLedger.decide(null, decision(1, RoutingOutcome.DIRECT), NOW);
    final Step tokens = SequenceLedger.accept(decided.state(), chunk(1, 0, "a"), NOW);

    assertThat(SequenceLedger.endIfFailed(tokens, NOW)).isSameAs(tokens);
    assertThat(SequenceLedger.endIfFailed(decided, NOW)).isSameAs(decided);
  }

  static RoutingDecision decision(final int epoch, final RoutingOutcome outcome) {
    return RoutingDecision.newBuilder()
        .setSequenceId("seq-1").setEpoch(epoch).setInstanceId("gpu-1").setOutcome(outcome).setReason("test")
        .setTraceId("trace-1").setRouterId("router-1").setDecidedAtMs(NOW).setInputTokens(12).build();
  }

  static TokenChunk chunk(final int epoch, final int start, final String... tokens) {
    return TokenChunk.newBuilder()
        .setSequenceId("seq-1").setEpoch(epoch).setInstanceId("gpu-1").setStartIndex(start)
        .setTokens(List.of(tokens)).setEmittedAtMs(NOW).build();
  }
}
