package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.tokenbuffer.internal.SequenceLedger.Step;
import io.zerolayer.tokenbuffer.internal.SequenceLedger.Verdict;
import java.util.Comparator;
import java.util.List;

/**
 * The rules of one sequence's routing decisions (DESIGN section 7), with no Kafka types: a
 * decision sets the epoch and owner; one of an older epoch changes nothing; tokens held before
 * it, and a backup's chunks read before its cut-over, are emitted with it; a refused request is
 * answered at once.
 */
public final class SequenceDecisions {

  private SequenceDecisions() {
  }

  /** Applies a routing decision; a decision of an older epoch changes nothing. */
  public static Step decide(final SequenceState current, final RoutingDecision decision, final long nowMs) {
    if (current != null && current.getStatus() == SequenceStatus.FINISHED) {
      if (sameRequest(current, decision)) {
        // A cut-over decided while the attempt was finishing: the client already has everything.
        return new Step(null, null, Verdict.FINISHED);
      }
      // The sequence id was used again by a new request: it starts afresh.
      return decide(null, decision, nowMs);
    }
    if (current != null && current.getOutcome() != null && decision.getEpoch() <= current.getEpoch()) {
      return new Step(null, null, Verdict.STALE_EPOCH);
    }
    // Tokens held before the decision belong to its attempt only if they came from the instance it names.
    final boolean keepHeld = current != null && current.getOutcome() == null
        && current.getEpoch() == decision.getEpoch()
        && (current.getOwner() == null || current.getOwner().equals(decision.getInstanceId()));
    final SequenceState next = decidedState(current, decision, keepHeld, nowMs);
    if (decision.getOutcome() == RoutingOutcome.REJECTED || decision.getOutcome() == RoutingOutcome.THROTTLED) {
      next.setStatus(SequenceStatus.FINISHED);
      next.setFinishReason(decision.getOutcome().name().toLowerCase());
      return new Step(next, ResponseChunks.refusal(next, decision, nowMs), Verdict.ACCEPTED);
    }
    ResponseChunk response = null;
    if (keepHeld && !current.getTokens().isEmpty()) {
      final boolean done = current.getFinishReason() != null;
      if (done) {
        next.setStatus(SequenceStatus.FINISHED);
      }
      response = ResponseChunks.of(next, 0, current.getTokens(), done, nowMs);
    }
    return replayAhead(next, current == null ? List.of() : current.getAhead(), response, nowMs);
  }

  /**
   * The sequence as the decision leaves it, before held and early chunks are replayed.
   *
   * @param keepHeld whether the tokens held before the decision belong to its attempt
   */
  private static SequenceState decidedState(final SequenceState current, final RoutingDecision decision,
      final boolean keepHeld, final long nowMs) {
    return SequenceState.newBuilder()
        .setSequenceId(decision.getSequenceId())
        .setEpoch(decision.getEpoch())
        .setOwner(decision.getInstanceId())
        .setOutcome(decision.getOutcome())
        .setTraceId(decision.getTraceId())
        .setReplyTopic(decision.getReplyTopic())
        .setRequestPartition(decision.getRequestPartition())
        .setRequestOffset(decision.getRequestOffset())
        .setTokens(keepHeld || decided(current) ? current.getTokens() : List.of())
        .setInputTokens(decision.getInputTokens())
        .setFinishReason(keepHeld ? current.getFinishReason() : null)
        .setStatus(SequenceStatus.STREAMING)
        .setLastProgressMs(nowMs)
        .setAttemptTokens(keepHeld ? current.getAttemptTokens() : 0)
        .setRateTokensPerS(0.0)
        .setStallReportedEpoch(decided(current) ? current.getStallReportedEpoch() : 0)
        // A failure reported before the decision still counts for its attempt.
        .setAttemptFailure(keepHeld ? current.getAttemptFailure() : null)
        .build();
  }

  /** Accepts the chunks that came ahead of this decision, as if they arrived now. */
  private static Step replayAhead(final SequenceState decided, final List<TokenChunk> ahead,
      final ResponseChunk heldResponse, final long nowMs) {
    SequenceState state = decided;
    state.setAhead(ahead.stream().filter(c -> c.getEpoch() > decided.getEpoch()).toList());
    ResponseChunk response = heldResponse;
    for (final TokenChunk chunk : ahead.stream().filter(c -> c.getEpoch() == decided.getEpoch())
        .sorted(Comparator.comparingInt(TokenChunk::getStartIndex)).toList()) {
      final Step step = SequenceLedger.accept(state, chunk, nowMs);
      state = step.state() == null ? state : step.state();
      response = ResponseChunks.merge(response, step.response());
    }
    return new Step(state, response, Verdict.ACCEPTED);
  }

  private static boolean sameRequest(final SequenceState state, final RoutingDecision decision) {
    return state.getRequestOffset() == decision.getRequestOffset()
        && state.getRequestPartition() == decision.getRequestPartition();
  }

  private static boolean decided(final SequenceState state) {
    return state != null && state.getOutcome() != null;
  }
}
