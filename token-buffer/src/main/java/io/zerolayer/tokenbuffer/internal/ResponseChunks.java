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
        // A refused or throttled sequence's last chunk says why, and when to try again.
        .setReason(last ? state.getEndReason() : null)
        .setRetryAfterMs(last ? state.getRetryAfterMs() : null)
        .setTraceId(state.getTraceId())
        .setRequestPartition(state.getRequestPartition())
        .setRequestOffset(state.getRequestOffset())
        .setEmittedAtMs(nowMs)
        .build();
  }

  /**
   * The whole answer to a request refused without a dispatch whose sequence id another request
   * holds: addressed to its own request's place, so that only its client takes it.
   */
  static ResponseChunk refusal(final RoutingDecision decision, final long nowMs) {
    return ResponseChunk.newBuilder()
        .setSequenceId(decision.getSequenceId())
        .setStartIndex(0)
        .setTokens(List.of())
        .setLast(true)
        .setFinishReason(decision.getOutcome().name().toLowerCase())
        .setOutcome(decision.getOutcome())
        .setReason(decision.getReason())
        .setRetryAfterMs(decision.getRetryAfterMs())
        .setTraceId(decision.getTraceId())
        .setRequestPartition(decision.getRequestPartition())
        .setRequestOffset(decision.getRequestOffset())
        .setEmittedAtMs(nowMs)
        .build();
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
