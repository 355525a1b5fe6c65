package io.zerolayer.gateway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One API the gateway speaks (OpenAI chat completions, OpenAI text completions, Anthropic
 * messages): how its requests read, and how its answers, streamed or whole, and its errors look,
 * so that the API's own SDKs read them as they read the original.
 */
public interface Dialect {

  /** The request a body asks for; the exception names the parameter at fault. */
  GatewayRequest parse(JsonNode body) throws BadRequestException;

  /** The HTTP status of a failure in this API. */
  int status(Failure failure);

  /** The error body of a failure, in this API's format. */
  ObjectNode error(Failure failure);

  /** The events that open a streamed answer, before its first text. */
  List<SseEvent> start(Answer answer);

  /** The event that carries the next piece of text. */
  SseEvent delta(Answer answer, String text);

  /** The events that close a streamed answer. */
  List<SseEvent> end(Answer answer, Answer.End end, boolean includeUsage);

  /** The event that ends a stream that failed after it started. */
  SseEvent streamError(Failure failure);

  /** The whole answer, when it is not streamed. */
  ObjectNode complete(Answer answer, String text, Answer.End end);
}
