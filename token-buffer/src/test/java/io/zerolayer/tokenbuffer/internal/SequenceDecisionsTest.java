package io.zerolayer.tokenbuffer.internal;

import static io.zerolayer.tokenbuffer.internal.SequenceLedgerTest.chunk;
import static io.zerolayer.tokenbuffer.internal.SequenceLedgerTest.decide;
import static io.zerolayer.tokenbuffer.internal.SequenceLedgerTest.decision;
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
  void shouldStartAfreshWhenANewRequestReusesAFinishedSequenceId() {
    final SequenceState throttled = decide(null, decision(0, RoutingOutcome.THROTTLED)).state();
    final RoutingDecision again = decision(0, RoutingOutcome.THROTTLED);
    again.setRequestOffset(99);

    final Step step = decide(throttled, again);

    assertThat(step.response().getOutcome()).isEqualTo(RoutingOutcome.THROTTLED);
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
  void shouldKeepAFailureReportedBeforeTheDecisionForTheAttempt() {
    final TokenChunk failed = chunk(1, 0);
    failed.setFailure("CUDA out of memory");
    final Step held = SequenceLedger.accept(null, failed, 0, NOW);

    final Step decided = decide(held.state(), decision(1, RoutingOutcome.DIRECT));

    assertThat(decided.state().getAttemptFailure()).isEqualTo("CUDA out of memory");
    assertThat(decided.state().getStatus()).isEqualTo(SequenceStatus.STREAMING);
  }
}
