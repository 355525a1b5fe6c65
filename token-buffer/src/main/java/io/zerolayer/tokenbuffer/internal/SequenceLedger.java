package io.zerolayer.tokenbuffer.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.avro.TokenRun;
import io.zerolayer.contract.sequence.TokenStreamRules;
import java.util.List;

/**
 * The rules of one sequence's token stream (DESIGN section 7) for workers' chunks, with no Kafka
 * types. Which chunks join the stream is decided by the tokens log's order alone
 * ({@link TokenStreamRules}), exactly as a client reading the log decides it, so the persisted
 * stream and the one a fast reader assembled are the same. Decisions only say what to watch and
 * whom to answer: tokens that join before the sequence's first decision are held, and
 * {@link SequenceDecisions} emits them when it comes.
 */
public final class SequenceLedger {

  /** What happened to a token chunk. */
  public enum Verdict {
    ACCEPTED, HELD, HEARTBEAT, FAILED, DUPLICATE, STALE_EPOCH, NOT_OWNER, BEHIND, GAP, FINISHED, IGNORED
  }

  /**
   * @param state the sequence's state after the input, or null when unchanged
   * @param response what to send the client, or null
   * @param verdict what happened to a token chunk (ACCEPTED for decisions)
   * @param appended the tokens the input added to the sequence, from index {@code startIndex}; or null
   * @param discardTokens whether the sequence's earlier tokens go (before {@code appended} is added)
   */
  public record Step(SequenceState state, ResponseChunk response, Verdict verdict, TokenRun appended,
      boolean discardTokens) {

    /** A step that adds no token and keeps those there are. */
    public Step(final SequenceState state, final ResponseChunk response, final Verdict verdict) {
      this(state, response, verdict, null, false);
    }
  }

  private SequenceLedger() {
  }

  /**
   * Accepts what is new in a worker's chunk, if it joins the sequence's stream.
   *
   * @param offset the chunk's offset in its tokens partition
   */
  public static Step accept(final SequenceState current, final TokenChunk chunk, final long offset,
      final long nowMs) {
    final boolean ended = current != null
        && (current.getStatus() == SequenceStatus.FINISHED || current.getFinishReason() != null);
    final boolean reused = ended && ofAnotherRequest(current, chunk);
    if (ended && !reused) {
      // The stream ended (its last chunk joined, perhaps before any decision): nothing joins it after.
      return new Step(null, null, Verdict.FINISHED);
    }
    // A new request with an ended sequence's id, whose chunks come before its decision, starts afresh.
    final SequenceState base = current != null && !reused ? current : pending(chunk, nowMs);
    final boolean decidedAttempt = chunk.getEpoch() == base.getEpoch()
        && chunk.getInstanceId().equals(base.getOwner());
    final TokenStreamRules.Verdict verdict = TokenStreamRules.judge(streamOwner(base), base.getTokenCount(), chunk);
    if (verdict == TokenStreamRules.Verdict.FAILURE) {
      // The worker says the attempt failed: if it is the one watched, the next check hands the sequence on.
      if (decidedAttempt) {
        return new Step(SequenceState.newBuilder(base).setAttemptFailure(chunk.getFailure()).build(), null,
            Verdict.FAILED);
      }
      // A newer attempt failed before its decision was read (a worker reads dispatches as they are
      // written, the decision comes with the router's commit): its decision takes the failure, else
      // the attempt would be watched for a first token that never comes.
      return chunk.getEpoch() > base.getEpoch()
          ? new Step(SequenceState.newBuilder(base).setEarlyFailureEpoch(chunk.getEpoch())
              .setEarlyFailureInstance(chunk.getInstanceId()).setEarlyFailure(chunk.getFailure()).build(), null,
              Verdict.FAILED)
          : new Step(null, null, Verdict.IGNORED);
    }
    if (!verdict.joins()) {
      if (verdict == TokenStreamRules.Verdict.BEHIND && decidedAttempt && base.getAttemptFailure() == null) {
        // The watched attempt can never join: hand the sequence on at once, from where the stream is now.
        return new Step(SequenceState.newBuilder(base).setAttemptFailure("the attempt resumed at index "
            + chunk.getStartIndex() + " but the stream had reached " + base.getTokenCount())
            .setBehindAttempts(base.getBehindAttempts() + 1).build(), null, Verdict.BEHIND);
      }
      return new Step(null, null, refusal(verdict));
    }
    final List<String> fresh = TokenStreamRules.fresh(base.getTokenCount(), chunk);
    final boolean tookOver = verdict == TokenStreamRules.Verdict.TAKES_OVER;
    final int attemptTokens = (tookOver ? 0 : base.getAttemptTokens()) + fresh.size();
    final SequenceState.Builder next = SequenceState.newBuilder(base)
        .setStreamEpoch(chunk.getEpoch())
        .setStreamOwner(chunk.getInstanceId())
        .setStreamAttempt(chunk.getAttemptId())
        .setLastChunkOffset(offset)
        .setTokenCount(base.getTokenCount() + fresh.size())
        .setAttemptTokens(attemptTokens)
        .setLastHeartbeatMs(decidedAttempt && fresh.isEmpty() ? nowMs : base.getLastHeartbeatMs())
        .setLastProgressMs(fresh.isEmpty() ? base.getLastProgressMs() : nowMs)
        .setLastEmittedMs(fresh.isEmpty() ? base.getLastEmittedMs() : chunk.getEmittedAtMs())
        // The worker's own clock times the rate, so chunks read in one batch do not look infinitely fast.
        .setRateTokensPerS(fresh.isEmpty() || attemptTokens == fresh.size() ? (tookOver ? 0.0
            : base.getRateTokensPerS()) : StallDetector.updatedRate(base.getRateTokensPerS(), fresh.size(),
                chunk.getEmittedAtMs() - base.getLastEmittedMs()));
    if (chunk.getLast()) {
      next.setFinishReason(finishReason(chunk));
      // An attempt newer than the decision read last ends the stream, but how the client is
      // answered (its outcome, a throttle's reason) is its decision's to say: that finishes it.
      if (base.getOutcome() != null && chunk.getEpoch() <= base.getEpoch()) {
        next.setStatus(SequenceStatus.FINISHED);
      }
    }
    final SequenceState state = next.build();
    final TokenRun run = new TokenRun(base.getTokenCount(), fresh);
    if (base.getOutcome() == null) {
      return new Step(state, null, Verdict.HELD, run, reused);
    }
    final boolean finished = state.getStatus() == SequenceStatus.FINISHED;
    if (fresh.isEmpty() && !finished) {
      return new Step(state, null, Verdict.HEARTBEAT);
    }
    return new Step(state, ResponseChunks.of(state, base.getTokenCount(), fresh, finished, nowMs),
        Verdict.ACCEPTED, run, false);
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
    final ResponseChunk last = ResponseChunks.of(ended, ended.getTokenCount(), List.of(), true, nowMs);
    last.setReason("the worker reported the attempt failed: " + state.getAttemptFailure());
    return new Step(ended, ResponseChunks.merge(step.response(), last), step.verdict(), step.appended(),
        step.discardTokens());
  }

  /**
   * Whether the chunk answers another request than the one whose sequence it is keyed to: both
   * name their request (writers that predate the field name none), and the places differ.
   */
  private static boolean ofAnotherRequest(final SequenceState sequence, final TokenChunk chunk) {
    return chunk.getRequestOffset() >= 0 && sequence.getRequestOffset() >= 0
        && (chunk.getRequestOffset() != sequence.getRequestOffset()
            || chunk.getRequestPartition() != sequence.getRequestPartition());
  }

  /** A sequence whose first chunk comes before any decision: its attempt is watched until one comes. */
  private static SequenceState pending(final TokenChunk chunk, final long nowMs) {
    return SequenceState.newBuilder()
        .setSequenceId(chunk.getSequenceId())
        .setEpoch(chunk.getEpoch())
        .setOwner(chunk.getInstanceId())
        .setStatus(SequenceStatus.PENDING)
        .setLastProgressMs(nowMs)
        .build();
  }

  private static Verdict refusal(final TokenStreamRules.Verdict verdict) {
    return switch (verdict) {
      case DUPLICATE -> Verdict.DUPLICATE;
      case GAP -> Verdict.GAP;
      case BEHIND -> Verdict.BEHIND;
      case NOT_OWNER -> Verdict.NOT_OWNER;
      case STALE_EPOCH -> Verdict.STALE_EPOCH;
      default -> throw new IllegalArgumentException(verdict + " joins the stream");
    };
  }

  /** The attempt that owns the stream, or null before any chunk joined it. */
  static TokenStreamRules.Owner streamOwner(final SequenceState state) {
    return state.getStreamOwner() == null ? null
        : new TokenStreamRules.Owner(state.getStreamEpoch(), state.getStreamOwner(), state.getStreamAttempt());
  }

  private static String finishReason(final TokenChunk chunk) {
    return chunk.getFinishReason() == null ? "stop" : chunk.getFinishReason();
  }

}
