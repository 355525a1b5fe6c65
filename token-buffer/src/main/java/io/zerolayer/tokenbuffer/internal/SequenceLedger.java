package io.zerolayer.tokenbuffer.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of one sequence's token stream (DESIGN section 7) for workers' chunks, with no Kafka
 * types: only chunks of the current epoch, from the instance that owns it, are accepted; indexes
 * already accepted are dropped; a
 * gap is refused; exactly the new tokens are emitted, in order. Tokens that arrive before their
 * decision are held ({@link SequenceDecisions} emits them when it comes).
 */
public final class SequenceLedger {

  /** What happened to a token chunk. */
  public enum Verdict { ACCEPTED, HELD, HEARTBEAT, FAILED, DUPLICATE, STALE_EPOCH, NOT_OWNER, GAP, FINISHED }

  /**
   * @param state the sequence's state after the input, or null when unchanged
   * @param response what to send the client, or null
   * @param verdict what happened to a token chunk (ACCEPTED for decisions)
   */
  public record Step(SequenceState state, ResponseChunk response, Verdict verdict) {
  }

  /** Chunks of a newer attempt held at most before its decision arrives. */
  static final int MAX_AHEAD = 256;

  private SequenceLedger() {
  }

  /** Accepts what is new in a worker's chunk, if it belongs to the current attempt. */
  public static Step accept(final SequenceState current, final TokenChunk chunk, final long nowMs) {
    if (current == null) {
      return hold(chunk, nowMs);
    }
    if (current.getStatus() == SequenceStatus.FINISHED) {
      return new Step(null, null, Verdict.FINISHED);
    }
    if (chunk.getEpoch() > current.getEpoch() && current.getAhead().size() < MAX_AHEAD) {
      // A backup's chunk can be read before the cut-over decision that made it the owner.
      final List<TokenChunk> ahead = new ArrayList<>(current.getAhead());
      ahead.add(chunk);
      return new Step(SequenceState.newBuilder(current).setAhead(ahead).build(), null, Verdict.HELD);
    }
    if (chunk.getEpoch() != current.getEpoch()) {
      return new Step(null, null, Verdict.STALE_EPOCH);
    }
    if (current.getOwner() != null && !current.getOwner().equals(chunk.getInstanceId())) {
      // Another attempt under the same epoch (a reused request id, two routers answering one stall):
      // its tokens, heartbeats and failures are not this attempt's.
      return new Step(null, null, Verdict.NOT_OWNER);
    }
    if (chunk.getFailure() != null) {
      // The worker says the attempt failed: the next stall check hands the sequence to a backup.
      return new Step(SequenceState.newBuilder(current).setAttemptFailure(chunk.getFailure()).build(), null,
          Verdict.FAILED);
    }
    if (chunk.getTokens().isEmpty() && !chunk.getLast()) {
      // A worker that holds the attempt in its queue says it is alive; no token moves.
      return new Step(SequenceState.newBuilder(current).setLastHeartbeatMs(nowMs).build(), null, Verdict.HEARTBEAT);
    }
    final int have = current.getTokens().size();
    final int end = chunk.getStartIndex() + chunk.getTokens().size();
    if (chunk.getStartIndex() > have) {
      return new Step(null, null, Verdict.GAP);
    }
    if (end <= have && !chunk.getLast()) {
      return new Step(null, null, Verdict.DUPLICATE);
    }
    final List<String> fresh = chunk.getTokens().subList(Math.min(have - chunk.getStartIndex(),
        chunk.getTokens().size()), chunk.getTokens().size());
    final List<String> tokens = new ArrayList<>(current.getTokens());
    tokens.addAll(fresh);
    final SequenceState next = SequenceState.newBuilder(current)
        .setTokens(tokens)
        .setLastProgressMs(fresh.isEmpty() ? current.getLastProgressMs() : nowMs)
        .setAttemptTokens(current.getAttemptTokens() + fresh.size())
        .setLastEmittedMs(fresh.isEmpty() ? current.getLastEmittedMs() : chunk.getEmittedAtMs())
        // The worker's own clock times the rate, so chunks read in one batch do not look infinitely fast.
        .setRateTokensPerS(fresh.isEmpty() || current.getAttemptTokens() == 0 ? current.getRateTokensPerS()
            : StallDetector.updatedRate(current.getRateTokensPerS(), fresh.size(),
                chunk.getEmittedAtMs() - current.getLastEmittedMs()))

        .setFinishReason(chunk.getLast() ? finishReason(chunk) : null)
        .setStatus(chunk.getLast() ? SequenceStatus.FINISHED : SequenceStatus.STREAMING)
        .build();
    if (current.getOutcome() == null) {
      return new Step(next, null, Verdict.HELD);
    }
    return new Step(next, ResponseChunks.of(next, have, fresh, chunk.getLast(), nowMs), Verdict.ACCEPTED);
  }

  /**
   * For a deployment that does not resume sequences: ends the step's sequence with finish reason
   * {@code error} once its attempt failed and its decision is known, as a proxy passes on its
   * upstream's failure. Any other step comes back as it is.
   */
  public static Step endIfFailed(final Step step, final long nowMs) {
    final SequenceState state = requireNonNull(step, "step").state();
    if (state == null || state.getAttemptFailure() == null || state.getOutcome() == null
        || state.getStatus() != SequenceStatus.STREAMING) {
      return step;
    }
    final SequenceState ended = SequenceState.newBuilder(state).setStatus(SequenceStatus.FINISHED)
        .setFinishReason("error").build();
    final ResponseChunk last = ResponseChunks.of(ended, ended.getTokens().size(), List.of(), true, nowMs);
    last.setReason("the worker reported the attempt failed: " + state.getAttemptFailure());
    return new Step(ended, ResponseChunks.merge(step.response(), last), step.verdict());
  }

  private static Step hold(final TokenChunk chunk, final long nowMs) {
    if (chunk.getStartIndex() != 0) {
      return new Step(null, null, Verdict.GAP);
    }
    final SequenceState held = SequenceState.newBuilder()
        .setSequenceId(chunk.getSequenceId())
        .setEpoch(chunk.getEpoch())
        .setOwner(chunk.getInstanceId())
        .setTokens(new ArrayList<>(chunk.getTokens()))
        .setAttemptTokens(chunk.getTokens().size())
        .setLastEmittedMs(chunk.getEmittedAtMs())
        .setFinishReason(chunk.getLast() ? finishReason(chunk) : null)
        .setAttemptFailure(chunk.getFailure())
        .setStatus(SequenceStatus.PENDING)
        .setLastProgressMs(nowMs)
        .build();
    return new Step(held, null, Verdict.HELD);
  }

  private static String finishReason(final TokenChunk chunk) {
    return chunk.getFinishReason() == null ? "stop" : chunk.getFinishReason();
  }

}
