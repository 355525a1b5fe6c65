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
    final SequenceState decided = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState two = SequenceLedger.accept(decided, chunk(1, 0, "a", "b"), NOW).state();

    final Step step = SequenceLedger.accept(two, chunk(1, 1, "b", "c", "d"), NOW);

    assertThat(step.verdict()).isEqualTo(Verdict.ACCEPTED);
    assertThat(step.response().getStartIndex()).isEqualTo(2);
    assertThat(step.response().getTokens()).containsExactly("c", "d");
    assertThat(step.state().getTokens()).containsExactly("a", "b", "c", "d");
  }

  @Test
  void shouldDropAChunkWhoseTokensWereAllAcceptedBefore() {
    final SequenceState decided = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState two = SequenceLedger.accept(decided, chunk(1, 0, "a", "b"), NOW).state();

    assertThat(SequenceLedger.accept(two, chunk(1, 0, "a", "b"), NOW).verdict()).isEqualTo(Verdict.DUPLICATE);
  }

  @Test
  void shouldTakeAnEmptyChunkAsTheWorkersHeartbeat() {
    final SequenceState decided = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();

    final Step step = SequenceLedger.accept(decided, chunk(1, 0), NOW + 500);

    assertThat(step.verdict()).isEqualTo(Verdict.HEARTBEAT);
    assertThat(step.response()).isNull();
    assertThat(step.state().getLastHeartbeatMs()).isEqualTo(NOW + 500);
  }

  @Test
  void shouldRefuseAChunkThatLeavesAGap() {
    final SequenceState decided = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();

    final Step step = SequenceLedger.accept(decided, chunk(1, 3, "x"), NOW);

    assertThat(step.verdict()).isEqualTo(Verdict.GAP);
    assertThat(step.response()).isNull();
  }

  @Test
  void shouldFenceChunksOfAnOlderEpoch() {
    final SequenceState first = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState second = SequenceDecisions.decide(first, decision(2, RoutingOutcome.CUTOVER), NOW).state();

    assertThat(SequenceLedger.accept(second, chunk(1, 0, "stale"), NOW).verdict()).isEqualTo(Verdict.STALE_EPOCH);
  }

  @Test
  void shouldCloseTheStreamWithTheOutcomeOnTheLastChunk() {
    final SequenceState decided = SequenceDecisions.decide(null, decision(1, RoutingOutcome.PREWARMED), NOW).state();
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
  void shouldEndAFailedAttemptsSequenceWithAnErrorAfterTheTokensItHadWhenNotResuming() {
    final SequenceState decided = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
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
    final Step decided = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW);
    final Step tokens = SequenceLedger.accept(decided.state(), chunk(1, 0, "a"), NOW);

    assertThat(SequenceLedger.endIfFailed(tokens, NOW)).isSameAs(tokens);
    assertThat(SequenceLedger.endIfFailed(decided, NOW)).isSameAs(decided);
  }

  @Test
  void shouldRefuseAChunkOfTheCurrentEpochFromAnInstanceThatDoesNotOwnIt() {
    final SequenceState decided = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState owned = SequenceLedger.accept(decided, chunk(1, 0, "a"), NOW).state();
    final TokenChunk intruder = TokenChunk.newBuilder(chunk(1, 1, "x", "y")).setInstanceId("gpu-2").build();
    final TokenChunk intruderFailure = TokenChunk.newBuilder(chunk(1, 1)).setInstanceId("gpu-2")
        .setFailure("engine error").build();

    assertThat(SequenceLedger.accept(owned, intruder, NOW).verdict()).isEqualTo(Verdict.NOT_OWNER);
    assertThat(SequenceLedger.accept(owned, intruderFailure, NOW).state()).isNull();
    assertThat(SequenceLedger.accept(owned, chunk(1, 1, "b"), NOW).response().getTokens()).containsExactly("b");
  }

  @Test
  void shouldNotEmitTokensHeldFromAnotherInstanceThanTheDecisionNames() {
    final TokenChunk early = TokenChunk.newBuilder(chunk(1, 0, "x")).setInstanceId("gpu-2").build();
    final SequenceState held = SequenceLedger.accept(null, early, NOW).state();

    final Step decided = SequenceDecisions.decide(held, decision(1, RoutingOutcome.DIRECT), NOW);

    assertThat(decided.response()).isNull();
    assertThat(decided.state().getTokens()).isEmpty();
    assertThat(decided.state().getOwner()).isEqualTo("gpu-1");
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
