package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.SequenceState;
import java.util.ArrayList;
import java.util.List;

/** What token-buffer sends a client: response chunks made from a sequence's state. */
final class ResponseChunks {

  private ResponseChunks() {
  }

  /** Tokens from {@code startIndex}; the last chunk also carries finish reason, outcome and usage. */
  static ResponseChunk of(final SequenceState state, final int startIndex, final List<String> tokens,
      final boolean last, final long nowMs) {
    return ResponseChunk.newBuilder()
        .setSequenceId(state.getSequenceId())
        .setStartIndex(startIndex)
        .setTokens(List.copyOf(tokens))
        .setLast(last)
        .setFinishReason(last ? state.getFinishReason() : null)
        .setOutcome(last ? state.getOutcome() : null)
        // Whose tokens these are: the stream's owner, or before any the attempt decided.
        .setInstanceId(state.getStreamOwner() != null ? state.getStreamOwner() : state.getOwner())
        .setEpoch(state.getStreamOwner() != null ? state.getStreamEpoch() : state.getEpoch())
        .setInputTokens(last ? state.getInputTokens() : 0)
        .setOutputTokens(last ? state.getTokenCount() : 0)
        .setTraceId(state.getTraceId())
        .setEmittedAtMs(nowMs)
        .build();
  }

  /** The final chunk of a rejected or throttled sequence, with the reason and retry-after. */
  static ResponseChunk refusal(final SequenceState state, final RoutingDecision decision, final long nowMs) {
    // After a cut-over that found no backup the client already holds tokens: the refusal continues them.
    final ResponseChunk last = of(state, state.getTokenCount(), List.of(), true, nowMs);
    last.setReason(decision.getReason());
    last.setRetryAfterMs(decision.getRetryAfterMs());
    return last;
  }

  /** One chunk with both chunks' tokens, the later one's fields; either may be null. */
  static ResponseChunk merge(final ResponseChunk earlier, final ResponseChunk later) {
    if (earlier == null || later == null) {
      return earlier == null ? later : earlier;
    }
    final List<String> tokens = new ArrayList<>(earlier.getTokens());
    tokens.addAll(later.getTokens());
    return ResponseChunk.newBuilder(later).setStartIndex(earlier.getStartIndex()).setTokens(tokens).build();
  }
}
