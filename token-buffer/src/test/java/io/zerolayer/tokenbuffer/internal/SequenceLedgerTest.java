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
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

class SequenceLedgerTest {

  private static final long NOW = 1_000L;
  /** For steps that must not read the token store. */
  static final IntFunction<List<String>> NO_TOKENS = count -> {
    throw new AssertionError("read " + count + " tokens from the store");
  };

  @Test
  void shouldEmitExactlyTheNewTokensWhenAChunkOverlapsWhatWasAccepted() {
    final SequenceState decided = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final SequenceState two = SequenceLedger.accept(decided, chunk(1, 0, "a", "b"), 0, NOW).state();

    final Step step = SequenceLedger.accept(two, chunk(1, 1, "b", "c", "d"), 0, NOW);

    assertThat(step.verdict()).isEqualTo(Verdict.ACCEPTED);
    assertThat(step.response().getStartIndex()).isEqualTo(2);
    assertThat(step.response().getTokens()).containsExactly("c", "d");
    assertThat(step.state().getTokenCount()).isEqualTo(4);
    assertThat(step.appended().getStartIndex()).isEqualTo(2);
    assertThat(step.appended().getTokens()).containsExactly("c", "d");
  }

  @Test
  void shouldDropAChunkWhoseTokensWereAllAcceptedBefore() {
    final SequenceState decided = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final SequenceState two = SequenceLedger.accept(decided, chunk(1, 0, "a", "b"), 0, NOW).state();

    assertThat(SequenceLedger.accept(two, chunk(1, 0, "a", "b"), 0, NOW).verdict()).isEqualTo(Verdict.DUPLICATE);
  }

  @Test
  void shouldTakeAnEmptyChunkAsTheWorkersHeartbeat() {
    final SequenceState decided = decide(null, decision(1, RoutingOutcome.DIRECT)).state();

    final Step step = SequenceLedger.accept(decided, chunk(1, 0), 0, NOW + 500);

    assertThat(step.verdict()).isEqualTo(Verdict.HEARTBEAT);
    assertThat(step.response()).isNull();
    assertThat(step.state().getLastHeartbeatMs()).isEqualTo(NOW + 500);
  }

  @Test
  void shouldRefuseAChunkThatLeavesAGap() {
    final SequenceState decided = decide(null, decision(1, RoutingOutcome.DIRECT)).state();

    final Step step = SequenceLedger.accept(decided, chunk(1, 3, "x"), 0, NOW);

    assertThat(step.verdict()).isEqualTo(Verdict.GAP);
    assertThat(step.response()).isNull();
  }

  @Test
  void shouldRefuseAnOlderAttemptsChunksOnceABackupTookTheStreamOver() {
    final SequenceState first = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final SequenceState two = SequenceLedger.accept(first, chunk(1, 0, "a", "b"), 0, NOW).state();
    final Step backup = SequenceLedger.accept(two, from("gpu-2", chunk(2, 2, "c")), 0, NOW);

    assertThat(backup.verdict()).isEqualTo(Verdict.ACCEPTED);
    assertThat(backup.response().getInstanceId()).isEqualTo("gpu-2");
    assertThat(SequenceLedger.accept(backup.state(), chunk(1, 2, "stale"), 0, NOW).verdict())
        .isEqualTo(Verdict.STALE_EPOCH);
  }

  @Test
  void shouldLetAClaimTakeTheStreamOverAtItsEndWhateverIndexItsAttemptResumedFrom() {
    final SequenceState first = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final SequenceState three = SequenceLedger.accept(first, chunk(1, 0, "a", "b", "c"), 7, NOW).state();

    // Resumed from two tokens, but the old owner's third came before the claim: the claim fences it at 3.
    final Step claimed = SequenceLedger.accept(three, from("gpu-2", chunk(2, 2)), 8, NOW);

    assertThat(claimed.state().getStreamOwner()).isEqualTo("gpu-2");
    assertThat(claimed.state().getTokenCount()).isEqualTo(3);
    assertThat(claimed.state().getLastChunkOffset()).isEqualTo(8);
    assertThat(SequenceLedger.accept(claimed.state(), chunk(1, 3, "d"), 9, NOW).verdict())
        .isEqualTo(Verdict.STALE_EPOCH);
  }

  @Test
  void shouldRefuseTokensOfABackupThatResumedBehindTheStreamWithoutAClaimAndHandItOnAtOnce() {
    final SequenceState first = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final SequenceState three = SequenceLedger.accept(first, chunk(1, 0, "a", "b", "c"), 0, NOW).state();
    final RoutingDecision cutover = decision(2, RoutingOutcome.CUTOVER);
    cutover.setInstanceId("gpu-2");
    final SequenceState decided = decide(three, cutover).state();

    // It was given two tokens, but the old owner's third came before its first.
    final Step behind = SequenceLedger.accept(decided, from("gpu-2", chunk(2, 2, "x")), 0, NOW);

    assertThat(behind.verdict()).isEqualTo(Verdict.BEHIND);
    assertThat(behind.response()).isNull();
    assertThat(behind.state().getAttemptFailure()).contains("resumed at index 2 but the stream had reached 3");
    assertThat(behind.state().getStreamOwner()).isEqualTo("gpu-1");
    // It did not fail on its instance: routers do not count it against the sequence's attempts.
    assertThat(behind.state().getBehindAttempts()).isOne();
  }

  @Test
  void shouldRefuseASecondRunOfTheSameTaskOnTheSameInstance() {
    final SequenceState first = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final TokenChunk runA = TokenChunk.newBuilder(chunk(1, 0, "a", "b")).setAttemptId("run-a").build();
    final SequenceState two = SequenceLedger.accept(first, runA, 0, NOW).state();

    // Delivered again after a restart, the task runs anew: its text need not continue run-a's.
    final TokenChunk runB = TokenChunk.newBuilder(chunk(1, 0, "x", "y", "z")).setAttemptId("run-b").build();

    assertThat(SequenceLedger.accept(two, runB, 1, NOW).verdict()).isEqualTo(Verdict.NOT_OWNER);
  }

  @Test
  void shouldGiveTheStreamToTheFirstAttemptInTheLogWhenTwoRunUnderOneEpoch() {
    final SequenceState claimed = SequenceLedger.accept(null, from("gpu-2", chunk(1, 0)), 0, NOW).state();

    assertThat(SequenceLedger.accept(claimed, chunk(1, 0, "x"), 0, NOW).verdict()).isEqualTo(Verdict.NOT_OWNER);
    assertThat(SequenceLedger.accept(claimed, from("gpu-2", chunk(1, 0, "a")), 0, NOW).verdict())
        .isEqualTo(Verdict.HELD);
  }

  @Test
  void shouldCloseTheStreamWithTheOutcomeOnTheLastChunk() {
    final SequenceState decided = decide(null, decision(1, RoutingOutcome.PREWARMED)).state();
    final SequenceState one = SequenceLedger.accept(decided, chunk(1, 0, "a"), 0, NOW).state();
    final TokenChunk last = chunk(1, 1);
    last.setLast(true);
    last.setFinishReason("length");

    final Step step = SequenceLedger.accept(one, last, 0, NOW);

    assertThat(step.response().getLast()).isTrue();
    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.PREWARMED);
    assertThat(step.response().getFinishReason()).isEqualTo("length");
    assertThat(step.response().getOutputTokens()).isEqualTo(1);
    assertThat(step.state().getStatus()).isEqualTo(SequenceStatus.FINISHED);
    assertThat(SequenceLedger.accept(step.state(), chunk(1, 1, "late"), 0, NOW).verdict()).isEqualTo(Verdict.FINISHED);
  }

  @Test
  void shouldEndAFailedAttemptsSequenceWithAnErrorAfterTheTokensItHadWhenNotResuming() {
    final SequenceState decided = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final SequenceState two = SequenceLedger.accept(decided, chunk(1, 0, "a", "b"), 0, NOW).state();
    final TokenChunk failed = chunk(1, 2);
    failed.setFailure("CUDA out of memory");

    final Step step = SequenceLedger.endIfFailed(SequenceLedger.accept(two, failed, 0, NOW), NOW);

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
    final Step decided = decide(null, decision(1, RoutingOutcome.DIRECT));
    final Step tokens = SequenceLedger.accept(decided.state(), chunk(1, 0, "a"), 0, NOW);

    assertThat(SequenceLedger.endIfFailed(tokens, NOW)).isSameAs(tokens);
    assertThat(SequenceLedger.endIfFailed(decided, NOW)).isSameAs(decided);
  }

  @Test
  void shouldStartAfreshForANewRequestWithAnEndedSequencesIdWhoseTokensComeBeforeItsDecision() {
    final SequenceState ended = SequenceState.newBuilder(decide(null, decision(1, RoutingOutcome.DIRECT)).state())
        .setRequestPartition(2).setRequestOffset(5).setStatus(SequenceStatus.FINISHED).setFinishReason("stop")
        .setTokenCount(3).build();
    final TokenChunk late = TokenChunk.newBuilder(chunk(1, 3, "d")).setRequestPartition(2).setRequestOffset(5).build();
    final TokenChunk next = TokenChunk.newBuilder(chunk(1, 0, "x")).setRequestPartition(2).setRequestOffset(9).build();

    assertThat(SequenceLedger.accept(ended, late, 0, NOW).verdict()).isEqualTo(Verdict.FINISHED);
    final Step step = SequenceLedger.accept(ended, next, 1, NOW);
    assertThat(step.verdict()).isEqualTo(Verdict.HELD);
    assertThat(step.discardTokens()).as("the ended sequence's tokens go").isTrue();
    assertThat(step.state().getStatus()).isEqualTo(SequenceStatus.PENDING);
    assertThat(step.state().getTokenCount()).isEqualTo(1);
    assertThat(step.appended().getTokens()).containsExactly("x");
  }

  @Test
  void shouldRefuseAChunkOfTheCurrentEpochFromAnInstanceThatDoesNotOwnIt() {
    final SequenceState decided = decide(null, decision(1, RoutingOutcome.DIRECT)).state();
    final SequenceState owned = SequenceLedger.accept(decided, chunk(1, 0, "a"), 0, NOW).state();
    final TokenChunk intruder = TokenChunk.newBuilder(chunk(1, 1, "x", "y")).setInstanceId("gpu-2").build();
    final TokenChunk intruderFailure = TokenChunk.newBuilder(chunk(1, 1)).setInstanceId("gpu-2")
        .setFailure("engine error").build();

    assertThat(SequenceLedger.accept(owned, intruder, 0, NOW).verdict()).isEqualTo(Verdict.NOT_OWNER);
    assertThat(SequenceLedger.accept(owned, intruderFailure, 0, NOW).state()).isNull();
    assertThat(SequenceLedger.accept(owned, chunk(1, 1, "b"), 0, NOW).response().getTokens()).containsExactly("b");
  }

  @Test
  void shouldLeaveTheStreamToTheAttemptTheLogGaveItWhicheverInstanceTheDecisionNames() {
    final SequenceState held = SequenceLedger.accept(null, from("gpu-2", chunk(1, 0, "x")), 0, NOW).state();

    final Step decided = SequenceDecisions.decide(held, decision(1, RoutingOutcome.DIRECT), count -> List.of("x"),
        NOW);

    // A reader of the tokens log has "x" from gpu-2 already: the persisted stream must hold the same.
    assertThat(decided.response().getTokens()).containsExactly("x");
    assertThat(decided.response().getInstanceId()).isEqualTo("gpu-2");
    assertThat(decided.state().getOwner()).isEqualTo("gpu-1");
    assertThat(SequenceLedger.accept(decided.state(), chunk(1, 0, "y"), 0, NOW).verdict()).isEqualTo(Verdict.NOT_OWNER);
  }

  /** A decision applied to a sequence whose tokens it need not read. */
  static Step decide(final SequenceState current, final RoutingDecision decision) {
    return SequenceDecisions.decide(current, decision, NO_TOKENS, NOW);
  }

  static RoutingDecision decision(final int epoch, final RoutingOutcome outcome) {
    return RoutingDecision.newBuilder()
        .setSequenceId("seq-1").setEpoch(epoch).setInstanceId("gpu-1").setOutcome(outcome).setReason("test")
        .setTraceId("trace-1").setRouterId("router-1").setDecidedAtMs(NOW).setInputTokens(12).build();
  }

  static TokenChunk from(final String instanceId, final TokenChunk chunk) {
    return TokenChunk.newBuilder(chunk).setInstanceId(instanceId).build();
  }

  static TokenChunk chunk(final int epoch, final int start, final String... tokens) {
    return TokenChunk.newBuilder()
        .setSequenceId("seq-1").setEpoch(epoch).setInstanceId("gpu-1").setStartIndex(start)
        .setTokens(List.of(tokens)).setEmittedAtMs(NOW).build();
  }
}
