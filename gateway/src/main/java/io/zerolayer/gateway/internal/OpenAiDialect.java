package io.zerolayer.gateway.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What OpenAI's chat and text completions share: errors as {@code {"error": {...}}}, streams of
 * {@code data:} lines ending with {@code [DONE]}, an optional usage chunk, and one choice.
 */
abstract class OpenAiDialect implements Dialect {

  private final String object;
  private final String idPrefix;

  /**
   * @param object the {@code object} of a whole answer ({@code chat.completion}, {@code text_completion})
   * @param idPrefix the prefix of answer ids
   */
  OpenAiDialect(final String object, final String idPrefix) {
    this.object = object;
    this.idPrefix = idPrefix;
  }

  /** A streamed choice that carries {@code text}, with its finish reason or null. */
  abstract ObjectNode streamedChoice(String text, boolean first, String finishReason);

  /** The whole answer's choice. */
  abstract ObjectNode wholeChoice(String text, String finishReason);

  /** The {@code object} of a streamed chunk. */
  abstract String chunkObject();

  @Override
  public int status(final Failure failure) {
    return failure.kind().status();
  }

  @Override
  public ObjectNode error(final Failure failure) {
    final ObjectNode error = Json.object();
    error.put("message", failure.message());
    error.put("type", type(failure.kind()));
    error.put("param", failure.param());
    error.put("code", code(failure.kind()));
    final ObjectNode body = Json.object();
    body.set("error", error);
    return body;
  }

  @Override
  public List<SseEvent> start(final Answer answer) {
    return List.of(SseEvent.data(Json.line(chunk(answer, streamedChoice("", true, null)))));
  }

  @Override
  public SseEvent delta(final Answer answer, final String text) {
    return SseEvent.data(Json.line(chunk(answer, streamedChoice(text, false, null))));
  }

  @Override
  public List<SseEvent> end(final Answer answer, final Answer.End end, final boolean includeUsage) {
    final List<SseEvent> events = new ArrayList<>(3);
    final ObjectNode last = chunk(answer, streamedChoice("", false, end.finishReason()));
    last.set("zerolayer", Json.routing(answer, end));
    events.add(SseEvent.data(Json.line(last)));
    if (includeUsage) {
      final ObjectNode usage = chunk(answer, null);
      usage.set("usage", usage(end));
      events.add(SseEvent.data(Json.line(usage)));
    }
    events.add(SseEvent.data("[DONE]"));
    return events;
  }

  @Override
  public SseEvent streamError(final Failure failure) {
    return SseEvent.data(Json.line(error(failure)));
  }

  @Override
  public ObjectNode complete(final Answer answer, final String text, final Answer.End end) {
    final ObjectNode body = head(answer, object);
    body.putArray("choices").add(wholeChoice(text, end.finishReason()));
    body.set("usage", usage(end));
    body.set("zerolayer", Json.routing(answer, end));
    return body;
  }

  private ObjectNode chunk(final Answer answer, final ObjectNode choice) {
    final ObjectNode chunk = head(answer, chunkObject());
    final var choices = chunk.putArray("choices");
    if (choice != null) {
      choices.add(choice);
    }
    return chunk;
  }

  private ObjectNode head(final Answer answer, final String kind) {
    final ObjectNode head = Json.object();
    head.put("id", idPrefix + answer.requestId());
    head.put("object", kind);
    head.put("created", answer.createdSeconds());
    head.put("model", answer.model());
    return head;
  }

  private static ObjectNode usage(final Answer.End end) {
    final ObjectNode usage = Json.object();
    usage.put("prompt_tokens", end.inputTokens());
    usage.put("completion_tokens", end.outputTokens());
    usage.put("total_tokens", end.inputTokens() + end.outputTokens());
    return usage;
  }

  /** OpenAI's finish reasons are the engines' own ({@code stop}, {@code length}). */
  static String finishReason(final String engineReason) {
    return "length".equals(engineReason) ? "length" : "stop";
  }

  private static String type(final Failure.Kind kind) {
    return switch (kind) {
      case BAD_REQUEST, NOT_FOUND, TOO_LARGE, UNAUTHENTICATED -> "invalid_request_error";
      case RATE_LIMITED -> "rate_limit_exceeded";
      case OVERLOADED, TIMEOUT, INTERNAL -> "server_error";
    };
  }

  private static String code(final Failure.Kind kind) {
    return switch (kind) {
      case UNAUTHENTICATED -> "invalid_api_key";
      case NOT_FOUND -> "model_not_found";
      case RATE_LIMITED -> "rate_limit_exceeded";
      case OVERLOADED -> "overloaded";
      case TIMEOUT -> "timeout";
      case TOO_LARGE -> "request_too_large";
      case BAD_REQUEST, INTERNAL -> null;
    };
  }
}
