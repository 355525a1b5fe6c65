package io.zerolayer.fleet.load;

import io.zerolayer.contract.avro.RoutingOutcome;
import java.util.List;

/**
 * A whole response stream: every chunk with its arrival time, and what the final chunk says.
 *
 * @param chunks the chunks in order; the last is the final chunk
 * @param routing the routing outcome the final chunk carries (null when it carries none)
 * @param finishReason why generation stopped ({@code stop}, {@code length}, {@code error}, ...), or null
 * @param reason why the request was rejected, throttled or failed, or null
 * @param retryAfterMs when a throttled request may be retried, or null
 */
public record Reply(List<ChunkArrival> chunks, RoutingOutcome routing, String finishReason, String reason,
    Long retryAfterMs) {

  public Reply {
    chunks = List.copyOf(chunks);
    if (chunks.isEmpty()) {
      throw new IllegalArgumentException("A reply has at least its final chunk");
    }
  }
}
