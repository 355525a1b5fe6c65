package io.zerolayer.client;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import java.util.List;

/**
 * A complete response stream of one sequence, as the client saw it.
 *
 * @param sequenceId the request's sequence id
 * @param tokens every token, in order
 * @param last the final chunk: finish reason, usage, routing outcome, trace id
 * @param chunks how many chunks carried the stream
 */
public record Response(String sequenceId, List<String> tokens, ResponseChunk last, int chunks) {

  public Response {
    tokens = List.copyOf(tokens);
  }

  /** The routing outcome the final chunk carries. */
  public RoutingOutcome outcome() {
    return last.getOutcome();
  }

  /** The generated text. */
  public String text() {
    return String.join("", tokens);
  }
}
