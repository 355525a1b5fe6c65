package io.zerolayer.client;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.sequence.TokenStreamRules;
import java.util.ArrayList;
import java.util.List;

/**
 * One sequence's tokens as the client passes them on, each index once and in order: from the
 * workers' chunks the moment they are written, judged by the tokens log's order exactly as
 * token-buffer judges them ({@link TokenStreamRules}), or from the durable response stream when
 * that has a token first. Both streams hold the same tokens, so whichever comes first is right;
 * a durable token that differs from one passed on is counted as a divergence.
 */
final class StreamMerger {

  private final String sequenceId;
  private final List<String> passed = new ArrayList<>();
  private TokenStreamRules.Owner owner;
  private int fastNext;
  private boolean fastDone;
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
    // The end itself comes with the durable stream's last chunk, which carries outcome and usage.
    fastDone = chunk.getLast();
    final ResponseChunk passedOn = pass(start, fresh, chunk.getInstanceId(), chunk.getEpoch(), chunk.getEmittedAtMs());
    if (passedOn != null) {
      // How the attempt was routed, which the durable stream says only at its end.
      passedOn.setOutcome(chunk.getRouting());
      passedOn.setInputTokens(chunk.getInputTokens());
    }
    return passedOn;
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

  private ResponseChunk pass(final int start, final List<String> fresh, final String instanceId, final int epoch,
      final long emittedAtMs) {
    if (start > passed.size()) {
      // Cannot happen while both streams are read from before the request was sent; said rather than hidden.
      throw new IllegalStateException("Response of " + sequenceId + " would skip tokens " + passed.size() + " to "
          + (start - 1) + ": the client missed part of both streams");
    }
    final List<String> tokens = fresh.subList(Math.min(passed.size() - start, fresh.size()), fresh.size());
    if (tokens.isEmpty()) {
      return null;
    }
    final int from = passed.size();
    passed.addAll(tokens);
    return ResponseChunk.newBuilder().setSequenceId(sequenceId).setStartIndex(from).setTokens(List.copyOf(tokens))
        .setLast(false).setInstanceId(instanceId).setEpoch(epoch).setEmittedAtMs(emittedAtMs).build();
  }
}
