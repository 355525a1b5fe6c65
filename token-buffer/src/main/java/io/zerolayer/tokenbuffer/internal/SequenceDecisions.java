package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.tokenbuffer.internal.SequenceLedger.Step;
import io.zerolayer.tokenbuffer.internal.SequenceLedger.Verdict;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The rules of one sequence's routing decisions (DESIGN section 7), with no Kafka types: a
 * decision names the attempt that stall detection watches and the outcome the client is told;
 * one of an older epoch changes nothing; tokens that joined the stream before the first decision
 * are emitted with it; a refused request is answered at once, and one that reused the id of an
 * unfinished sequence is answered without touching it; a throttle for a stalled attempt
 * waits for the router's end chunk in the tokens log, and an attempt whose end was read before
 * its decision ends with it. Which tokens make up the stream
 * is the tokens log's to say ({@link SequenceLedger}), never a decision's.
 */
public final class SequenceDecisions {

  private SequenceDecisions() {
  }

  /**
   * Applies a routing decision; a decision of an older epoch changes nothing.
   *
   * @param tokens the sequence's first tokens, as many as asked for, from the token store
   */
  public static Step decide(final SequenceState current, final RoutingDecision decision,
      final IntFunction<List<String>> tokens, final long nowMs) {
    if (decided(current) && current.getStatus() != SequenceStatus.FINISHED && decision.getEpoch() == 0
        && !sameRequest(current, decision)) {
      // Another request with this unfinished sequence's id, which its router refused (the id is
      // in use): its client is answered alone, at its own request's place; the sequence is untouched.
      return new Step(null, ResponseChunks.refusal(decision, nowMs), Verdict.IGNORED);
    }
    if (current != null && current.getStatus() == SequenceStatus.FINISHED) {
      if (sameRequest(current, decision)) {
        // A cut-over decided while the attempt was finishing: the client already has everything.
        return new Step(null, null, Verdict.FINISHED);
      }
      // The sequence id was used again by a new request: it starts afresh.
      final Step fresh = decide(null, decision, tokens, nowMs);
      return new Step(fresh.state(), fresh.response(), fresh.verdict(), fresh.appended(), true);
    }
    if (decided(current) && decision.getEpoch() <= current.getEpoch()) {
      return new Step(null, null, Verdict.STALE_EPOCH);
    }
    final SequenceState next = decidedState(current, decision, nowMs);
    // The tokens log ended the stream already: the attempt's end was read before its decision.
    final boolean closed = current != null && current.getFinishReason() != null;
    if (refused(decision)) {
      next.setEndReason(decision.getReason());
      next.setRetryAfterMs(decision.getRetryAfterMs());
      if (decided(current) && !closed) {
        // A throttle for a stalled attempt: the router's end chunk in the tokens log says at which
        // token the stream ends, as it does for a client that reads the log; nothing is watched until then.
        next.setOwner(null);
        return new Step(next, null, Verdict.ACCEPTED);
      }
      next.setStatus(SequenceStatus.FINISHED);
      if (!closed) {
        next.setFinishReason(decision.getOutcome().name().toLowerCase());
      }
      return new Step(next, ResponseChunks.of(next, next.getTokenCount(), List.of(), true, nowMs),
          Verdict.ACCEPTED);
    }
    ResponseChunk held = null;
    if (!decided(current) && current != null && (current.getTokenCount() > 0 || closed)) {
      if (closed) {
        next.setStatus(SequenceStatus.FINISHED);
      }
      held = ResponseChunks.of(next, 0, tokens.apply(current.getTokenCount()), closed, nowMs);
    } else if (closed) {
      // The new attempt sent all of its tokens before its decision was read; they went out already.
      next.setStatus(SequenceStatus.FINISHED);
      held = ResponseChunks.of(next, next.getTokenCount(), List.of(), true, nowMs);
    }
    return new Step(next, held, Verdict.ACCEPTED);
  }

  /** The sequence as the decision leaves it. */
  private static SequenceState decidedState(final SequenceState current, final RoutingDecision decision,
      final long nowMs) {
    final boolean sameAttempt = current != null && current.getEpoch() == decision.getEpoch()
        && decision.getInstanceId() != null && decision.getInstanceId().equals(current.getOwner());
    final boolean streaming = current != null && current.getStreamOwner() != null
        && current.getStreamEpoch() == decision.getEpoch();
    final boolean failedEarly = current != null && current.getEarlyFailureEpoch() == decision.getEpoch()
        && decision.getInstanceId() != null && decision.getInstanceId().equals(current.getEarlyFailureInstance());
    final boolean earlyFailureAhead = current != null && current.getEarlyFailureEpoch() > decision.getEpoch();
    return SequenceState.newBuilder()
        .setSequenceId(decision.getSequenceId())
        .setTenantId(decision.getTenantId())
        .setEpoch(decision.getEpoch())
        .setOwner(decision.getInstanceId())
        .setStreamEpoch(current == null ? 0 : current.getStreamEpoch())
        .setStreamOwner(current == null ? null : current.getStreamOwner())
        .setStreamAttempt(current == null ? null : current.getStreamAttempt())
        .setLastChunkOffset(current == null ? -1 : current.getLastChunkOffset())
        .setOutcome(decision.getOutcome())
        .setTraceId(decision.getTraceId())
        .setReplyTopic(decision.getReplyTopic())
        .setRequestPartition(decision.getRequestPartition())
        .setRequestOffset(decision.getRequestOffset())
        .setTokenCount(current == null ? 0 : current.getTokenCount())
        .setInputTokens(decision.getInputTokens())
        .setFinishReason(current == null ? null : current.getFinishReason())
        .setStatus(SequenceStatus.STREAMING)
        .setLastProgressMs(nowMs)
        // An attempt that took the stream before its decision was read has started already.
        .setAttemptTokens(streaming ? current.getAttemptTokens() : 0)
        .setLastEmittedMs(streaming ? current.getLastEmittedMs() : 0)
        .setRateTokensPerS(streaming ? current.getRateTokensPerS() : 0.0)
        .setLastHeartbeatMs(sameAttempt ? current.getLastHeartbeatMs() : 0)
        // By token-buffer's clock, so that a router's clock skew moves no deadline; the prediction
        // runs from the request's submission, so the deadline errs late by the decision's own time.
        .setFirstTokenDueMs(decision.getPredictedTtftMs() == null ? 0
            : nowMs + Math.round(decision.getPredictedTtftMs()))
        .setStallReportedEpoch(decided(current) ? current.getStallReportedEpoch() : 0)
        .setBehindAttempts(decided(current) ? current.getBehindAttempts() : 0)
        // A failure reported before the decision still counts for its attempt.
        .setAttemptFailure(sameAttempt ? current.getAttemptFailure() : failedEarly ? current.getEarlyFailure() : null)
        .setEarlyFailureEpoch(earlyFailureAhead ? current.getEarlyFailureEpoch() : 0)
        .setEarlyFailureInstance(earlyFailureAhead ? current.getEarlyFailureInstance() : null)
        .setEarlyFailure(earlyFailureAhead ? current.getEarlyFailure() : null)
        .build();
  }

  /**
   * Whether the decision ends the request unserved: rejected, throttled, or an outcome this
   * reader does not know (a newer router's) with nothing dispatched.
   */
  private static boolean refused(final RoutingDecision decision) {
    return decision.getOutcome() == RoutingOutcome.REJECTED || decision.getOutcome() == RoutingOutcome.THROTTLED
        || decision.getOutcome() == RoutingOutcome.UNKNOWN && decision.getEpoch() == 0;
  }

  private static boolean sameRequest(final SequenceState state, final RoutingDecision decision) {
    return state.getRequestOffset() == decision.getRequestOffset()
        && state.getRequestPartition() == decision.getRequestPartition();
  }

  private static boolean decided(final SequenceState state) {
    return state != null && state.getOutcome() != null;
  }
}
