package io.zerolayer.client;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.sequence.TokenStreamRules;
import java.util.ArrayList;
import java.util.List;

/**
 * One sequence's tokens as the client passes them on, each index once and in order: from the
 * workers' chunks the moment they are written, judged by the tokens log's order exactly as
 * token-buffer judges them ({@link TokenStreamRules}), or from the durable response stream when
 * that has a token first. Both streams hold the same tokens, so whichever comes first is right;
 * a durable token that differs from one passed on is counted as a divergence. A stream that ends
 * as the engine finished a served attempt ends from the workers' log too; any other end comes
 * from the durable stream, which says why.
 */
final class StreamMerger {

  private final String sequenceId;
  private final List<String> passed = new ArrayList<>();
  private TokenStreamRules.Owner owner;
  private int fastNext;
  private boolean fastDone;
  private boolean endedFromWorkers;
  private int divergences;

  StreamMerger(final String sequenceId) {
    this.sequenceId = sequenceId;
  }

  /** The part of a worker's chunk to pass on, or null when it adds nothing or is not the stream's. */
  ResponseChunk fromWorker(final TokenChunk chunk) {
    if (fastDone) {
      return null;
    }
    final TokenStreamRules.Verdict verdict = TokenStreamRules.judge(owner, fastNext, chunk);
    if (!verdict.joins()) {
      return null;
    }
    owner = TokenStreamRules.Owner.of(chunk);
    final List<String> fresh = TokenStreamRules.fresh(fastNext, chunk);
    final int start = fastNext;
    fastNext += fresh.size();
    fastDone = chunk.getLast();
    if (fastDone && servedEnd(chunk)) {
      return end(start, fresh, chunk);
    }
    // Any other end (a router's, a failure's) comes with the durable stream's last chunk, which says why.
    final ResponseChunk passedOn = pass(start, fresh, chunk.getInstanceId(), chunk.getEpoch(), chunk.getEmittedAtMs());
    if (passedOn != null) {
      // How the attempt was routed, which the durable stream says only at its end.
      passedOn.setOutcome(chunk.getRouting());
      passedOn.setInputTokens(chunk.getInputTokens());
    }
    return passedOn;
  }

  /** Whether the stream ended as the engine finished a served attempt: its last chunk says all the end says. */
  private static boolean servedEnd(final TokenChunk chunk) {
    final RoutingOutcome routing = chunk.getRouting();
    return chunk.getFailure() == null && routing != null && switch (routing) {
      case DIRECT, FALLBACK, PREWARMED, CUTOVER -> true;
      default -> false;
    };
  }

  /**
   * The last chunk of a stream the workers' log ended, as the durable stream will say it: the
   * engine's finish reason, how the attempt was routed, and the usage. token-buffer writes the
   * same end once it has read the stream; a client need not wait for that.
   */
  private ResponseChunk end(final int start, final List<String> fresh, final TokenChunk chunk) {
    final List<String> tokens = unpassed(start, fresh);
    final int from = passed.size();
    passed.addAll(tokens);
    endedFromWorkers = true;
    return ResponseChunk.newBuilder().setSequenceId(sequenceId).setStartIndex(from).setTokens(List.copyOf(tokens))
        .setLast(true).setFinishReason(chunk.getFinishReason() == null ? "stop" : chunk.getFinishReason())
        .setOutcome(chunk.getRouting()).setInstanceId(chunk.getInstanceId()).setEpoch(chunk.getEpoch())
        .setInputTokens(chunk.getInputTokens()).setOutputTokens(passed.size())
        .setRequestPartition(chunk.getRequestPartition()).setRequestOffset(chunk.getRequestOffset())
        .setEmittedAtMs(chunk.getEmittedAtMs()).build();
  }

  /** Whether the end was passed on from the workers' log, before the durable stream's. */
  boolean endedFromWorkers() {
    return endedFromWorkers;
  }

  /** The part of a durable chunk to pass on: its tokens not passed on yet, and always the last chunk. */
  ResponseChunk fromDurable(final ResponseChunk chunk) {
    final int start = chunk.getStartIndex();
    final List<String> tokens = chunk.getTokens();
    for (int i = start; i < Math.min(passed.size(), start + tokens.size()); i++) {
      if (!passed.get(i).equals(tokens.get(i - start))) {
        divergences++;
      }
    }
    final List<String> fresh = tokens.subList(Math.min(Math.max(0, passed.size() - start), tokens.size()),
        tokens.size());
    if (chunk.getLast()) {
      final ResponseChunk last = ResponseChunk.newBuilder(chunk).setStartIndex(passed.size())
          .setTokens(List.copyOf(fresh)).build();
      passed.addAll(fresh);
      return last;
    }
    return pass(Math.max(start, passed.size()), fresh, chunk.getInstanceId(), chunk.getEpoch(),
        chunk.getEmittedAtMs());
  }

  /** Tokens of the durable stream that differed from those passed on at the same index. */
  int divergences() {
    return divergences;
  }

  /** Every token passed on so far. */
  List<String> passed() {
    return List.copyOf(passed);
  }

  /** The tokens of {@code fresh}, which start at index {@code start}, not passed on yet. */
  private List<String> unpassed(final int start, final List<String> fresh) {
    if (start > passed.size()) {
      // Cannot happen while both streams are read from before the request was sent; said rather than hidden.
      throw new IllegalStateException("Response of " + sequenceId + " would skip tokens " + passed.size() + " to "
          + (start - 1) + ": the client missed part of both streams");
    }
    return fresh.subList(Math.min(passed.size() - start, fresh.size()), fresh.size());
  }

  private ResponseChunk pass(final int start, final List<String> fresh, final String instanceId, final int epoch,
      final long emittedAtMs) {
    final List<String> tokens = unpassed(start, fresh);
    if (tokens.isEmpty()) {
      return null;
    }
    final int from = passed.size();
    passed.addAll(tokens);
    return ResponseChunk.newBuilder().setSequenceId(sequenceId).setStartIndex(from).setTokens(List.copyOf(tokens))
        .setLast(false).setInstanceId(instanceId).setEpoch(epoch).setEmittedAtMs(emittedAtMs).build();
  }
}
