package io.zerolayer.tokenbuffer.internal;

import static io.zerolayer.tokenbuffer.internal.SequenceLedgerTest.chunk;
import static io.zerolayer.tokenbuffer.internal.SequenceLedgerTest.decision;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.tokenbuffer.internal.SequenceLedger.Step;
import io.zerolayer.tokenbuffer.internal.SequenceLedger.Verdict;
import org.junit.jupiter.api.Test;

class SequenceDecisionsTest {

  private static final long NOW = 1_000L;

  @Test
  void shouldHoldABackupsChunksThatArriveBeforeTheCutOverAndReplayThemWithIt() {
    final SequenceState first = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final SequenceState two = SequenceLedger.accept(first, chunk(1, 0, "a", "b"), NOW).state();
    final TokenChunk backup = chunk(2, 2, "c", "d");
    backup.setInstanceId("gpu-2");

    final Step early = SequenceLedger.accept(two, backup, NOW);
    assertThat(early.verdict()).isEqualTo(Verdict.HELD);
    assertThat(early.response()).isNull();

    final RoutingDecision cutover = decision(2, RoutingOutcome.CUTOVER);
    cutover.setInstanceId("gpu-2");
    final Step decided = SequenceDecisions.decide(early.state(), cutover, NOW);

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

    final Step decided = SequenceDecisions.decide(held.state(), decision(1, RoutingOutcome.DIRECT), NOW);

    assertThat(decided.response().getTokens()).containsExactly("a", "b");
    assertThat(decided.response().getStartIndex()).isZero();
  }

  @Test
  void shouldIgnoreACutOverDecidedWhileTheAttemptWasFinishing() {
    final SequenceState decided = SequenceDecisions.decide(null, decision(1, RoutingOutcome.DIRECT), NOW).state();
    final TokenChunk last = chunk(1, 0, "a");
    last.setLast(true);
    final SequenceState finished = SequenceLedger.accept(decided, last, NOW).state();

    final Step late = SequenceDecisions.decide(finished, decision(2, RoutingOutcome.CUTOVER), NOW);

    assertThat(late.verdict()).isEqualTo(Verdict.FINISHED);
    assertThat(late.response()).isNull();
  }

  @Test
  void shouldStartAfreshWhenANewRequestReusesAFinishedSequenceId() {
    final SequenceState throttled = SequenceDecisions.decide(null, decision(0, RoutingOutcome.THROTTLED), NOW).state();
    final RoutingDecision again = decision(0, RoutingOutcome.THROTTLED);
    again.setRequestOffset(99);

    final Step step = SequenceDecisions.decide(throttled, again, NOW);

    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.THROTTLED);
  }

  @Test
  void shouldAnswerARejectedRequestAtOnceWithItsReason() {
    final RoutingDecision rejected = decision(0, RoutingOutcome.REJECTED);
    rejected.setReason("maxOutputTokens must be between 1 and 4096");

    final Step step = SequenceDecisions.decide(null, rejected, NOW);

    assertThat(step.response().getLast()).isTrue();
    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(step.response().getReason()).contains("maxOutputTokens");
  }

  @Test
  void shouldKeepAFailureReportedBeforeTheDecisionForTheAttempt() {
    final TokenChunk failed = chunk(1, 0);
    failed.setFailure("CUDA out of memory");
    final Step held = SequenceLedger.accept(null, failed, NOW);

    final Step decided = SequenceDecisions.decide(held.state(), decision(1, RoutingOutcome.DIRECT), NOW);

    assertThat(decided.state().getAttemptFailure()).isEqualTo("CUDA out of memory");
    assertThat(decided.state().getStatus()).isEqualTo(SequenceStatus.STREAMING);
  }
}
