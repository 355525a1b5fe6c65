package io.zerolayer.gateway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** OpenAI's Chat Completions API ({@code POST /v1/chat/completions}). */
public final class OpenAiChat extends OpenAiDialect {

  private static final List<String> ROLES = List.of("system", "developer", "user", "assistant");

  private final int defaultMaxTokens;
  private final int maxTokens;

  /**
   * @param defaultMaxTokens output tokens when the request names no limit
   * @param maxTokens the most it may ask for
   */
  public OpenAiChat(final int defaultMaxTokens, final int maxTokens) {
    super("chat.completion", "chatcmpl-");
    this.defaultMaxTokens = defaultMaxTokens;
    this.maxTokens = maxTokens;
  }

  @Override
  public GatewayRequest parse(final JsonNode body) throws BadRequestException {
    final String model = JsonFields.requiredString(body, "model");
    final var messages = JsonFields.messages(body, ROLES);
    final String limitField = body.hasNonNull("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
    final int limit = JsonFields.tokenLimit(body, limitField, Math.min(defaultMaxTokens, maxTokens), maxTokens);
    if (body.hasNonNull("n") && body.get("n").asInt(0) != 1) {
      throw new BadRequestException("n", "'n' must be 1: one choice per request is supported");
    }
    final JsonNode options = body.path("stream_options");
    if (!options.isMissingNode() && !options.isNull() && !options.isObject()) {
      throw new BadRequestException("stream_options", "'stream_options' must be an object");
    }
    if (body.hasNonNull("user") && !body.get("user").isTextual()) {
      throw new BadRequestException("user", "'user' must be a string");
    }
    final boolean includeUsage = options.isObject() && JsonFields.optionalBoolean(options, "include_usage");
    return new GatewayRequest(model, messages, null, limit, JsonFields.optionalLong(body, "seed"),
        JsonFields.optionalBoolean(body, "stream"), includeUsage, JsonFields.optionalBoolean(body, "ignore_eos"));
  }

  @Override
  ObjectNode streamedChoice(final String text, final boolean first, final String finishReason) {
    final ObjectNode choice = Json.object();
    choice.put("index", 0);
    final ObjectNode delta = choice.putObject("delta");
    if (first) {
      delta.put("role", "assistant");
    }
    if (finishReason == null) {
      delta.put("content", text);
    }
    choice.put("finish_reason", finishReason == null ? null : finishReason(finishReason));
    return choice;
  }

  @Override
  ObjectNode wholeChoice(final String text, final String finishReason) {
    final ObjectNode choice = Json.object();
    choice.put("index", 0);
    final ObjectNode message = choice.putObject("message");
    message.put("role", "assistant");
    message.put("content", text);
    choice.put("finish_reason", finishReason(finishReason));
    return choice;
  }

  @Override
  String chunkObject() {
    return "chat.completion.chunk";
  }
}
