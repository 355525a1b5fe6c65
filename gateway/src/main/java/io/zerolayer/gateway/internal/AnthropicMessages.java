package io.zerolayer.gateway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zerolayer.contract.avro.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * Anthropic's Messages API ({@code POST /v1/messages}): a system prompt beside the messages, a
 * required token limit, named stream events, and overload as 529.
 */
public final class AnthropicMessages implements Dialect {

  private static final List<String> ROLES = List.of("user", "assistant");
  /** Anthropic's status for an API that is overloaded. */
  private static final int OVERLOADED = 529;

  private final int maxTokens;

  /**
   * @param maxTokens the most output tokens a request may ask for
   */
  public AnthropicMessages(final int maxTokens) {
    this.maxTokens = maxTokens;
  }

  @Override
  public GatewayRequest parse(final JsonNode body) throws BadRequestException {
    final String model = JsonFields.requiredString(body, "model");
    final int limit = JsonFields.tokenLimit(body, "max_tokens", 0, maxTokens);
    final List<ChatMessage> messages = new ArrayList<>();
    if (body.hasNonNull("system")) {
      messages.add(new ChatMessage("system", JsonFields.text(body.get("system"), "system")));
    }
    messages.addAll(JsonFields.messages(body, ROLES));
    final JsonNode metadata = body.path("metadata");
    if (!metadata.isMissingNode() && !metadata.isNull() && !metadata.isObject()) {
      throw new BadRequestException("metadata", "'metadata' must be an object");
    }
    return new GatewayRequest(model, messages, null, limit, 0, JsonFields.optionalBoolean(body, "stream"), true,
        false);
  }

  @Override
  public int status(final Failure failure) {
    return failure.kind() == Failure.Kind.OVERLOADED ? OVERLOADED : failure.kind().status();
  }

  @Override
  public ObjectNode error(final Failure failure) {
    final ObjectNode body = Json.object();
    body.put("type", "error");
    final ObjectNode error = body.putObject("error");
    error.put("type", type(failure.kind()));
    error.put("message", failure.param() == null ? failure.message() : failure.param() + ": " + failure.message());
    return body;
  }

  @Override
  public List<SseEvent> start(final Answer answer) {
    final ObjectNode start = Json.object();
    start.put("type", "message_start");
    final ObjectNode message = message(answer);
    message.putArray("content");
    message.putNull("stop_reason");
    message.set("usage", usage(answer.inputTokens(), 0));
    start.set("message", message);
    final ObjectNode blockStart = Json.object();
    blockStart.put("type", "content_block_start");
    blockStart.put("index", 0);
    final ObjectNode block = blockStart.putObject("content_block");
    block.put("type", "text");
    block.put("text", "");
    return List.of(event("message_start", start), event("content_block_start", blockStart));
  }

  @Override
  public SseEvent delta(final Answer answer, final String text) {
    final ObjectNode delta = Json.object();
    delta.put("type", "content_block_delta");
    delta.put("index", 0);
    final ObjectNode textDelta = delta.putObject("delta");
    textDelta.put("type", "text_delta");
    textDelta.put("text", text);
    return event("content_block_delta", delta);
  }

  @Override
  public List<SseEvent> end(final Answer answer, final Answer.End end, final boolean includeUsage) {
    final ObjectNode blockStop = Json.object();
    blockStop.put("type", "content_block_stop");
    blockStop.put("index", 0);
    final ObjectNode messageDelta = Json.object();
    messageDelta.put("type", "message_delta");
    final ObjectNode delta = messageDelta.putObject("delta");
    delta.put("stop_reason", stopReason(end.finishReason()));
    delta.putNull("stop_sequence");
    messageDelta.set("usage", usage(end.inputTokens(), end.outputTokens()));
    messageDelta.set("zerolayer", Json.routing(answer, end));
    final ObjectNode stop = Json.object();
    stop.put("type", "message_stop");
    return List.of(event("content_block_stop", blockStop), event("message_delta", messageDelta),
        event("message_stop", stop));
  }

  @Override
  public SseEvent streamError(final Failure failure) {
    return event("error", error(failure));
  }

  @Override
  public ObjectNode complete(final Answer answer, final String text, final Answer.End end) {
    final ObjectNode message = message(answer);
    final ObjectNode block = message.putArray("content").addObject();
    block.put("type", "text");
    block.put("text", text);
    message.put("stop_reason", stopReason(end.finishReason()));
    message.set("usage", usage(end.inputTokens(), end.outputTokens()));
    message.set("zerolayer", Json.routing(answer, end));
    return message;
  }

  private static ObjectNode message(final Answer answer) {
    final ObjectNode message = Json.object();
    message.put("id", "msg_" + answer.requestId());
    message.put("type", "message");
    message.put("role", "assistant");
    message.put("model", answer.model());
    message.putNull("stop_sequence");
    return message;
  }

  private static ObjectNode usage(final int inputTokens, final int outputTokens) {
    final ObjectNode usage = Json.object();
    usage.put("input_tokens", inputTokens);
    usage.put("output_tokens", outputTokens);
    return usage;
  }

  private static SseEvent event(final String type, final ObjectNode data) {
    return new SseEvent(null, type, Json.line(data));
  }

  private static String stopReason(final String engineReason) {
    return "length".equals(engineReason) ? "max_tokens" : "end_turn";
  }

  private static String type(final Failure.Kind kind) {
    return switch (kind) {
      case BAD_REQUEST -> "invalid_request_error";
      case UNAUTHENTICATED -> "authentication_error";
      case NOT_FOUND -> "not_found_error";
      case TOO_LARGE -> "request_too_large";
      case RATE_LIMITED -> "rate_limit_error";
      case OVERLOADED -> "overloaded_error";
      case TIMEOUT, INTERNAL -> "api_error";
    };
  }
}
