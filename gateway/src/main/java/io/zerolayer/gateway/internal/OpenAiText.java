package io.zerolayer.gateway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** OpenAI's legacy Completions API ({@code POST /v1/completions}): one prompt, text back. */
public final class OpenAiText extends OpenAiDialect {

  /** The API's own default when a request names no limit. */
  private static final int API_DEFAULT_MAX_TOKENS = 16;

  private final int maxTokens;

  /**
   * @param maxTokens the most output tokens a request may ask for
   */
  public OpenAiText(final int maxTokens) {
    super("text_completion", "cmpl-");
    this.maxTokens = maxTokens;
  }

  @Override
  public GatewayRequest parse(final JsonNode body) throws BadRequestException {
    final String model = JsonFields.requiredString(body, "model");
    final String prompt = prompt(body.get("prompt"));
    final int limit = JsonFields.tokenLimit(body, "max_tokens", Math.min(API_DEFAULT_MAX_TOKENS, maxTokens),
        maxTokens);
    final JsonNode options = body.path("stream_options");
    final boolean includeUsage = options.isObject() && JsonFields.optionalBoolean(options, "include_usage");
    return new GatewayRequest(model, List.of(), prompt, limit, JsonFields.optionalLong(body, "seed"),
        JsonFields.optionalBoolean(body, "stream"), includeUsage, JsonFields.optionalBoolean(body, "ignore_eos"));
  }

  private static String prompt(final JsonNode prompt) throws BadRequestException {
    if (prompt == null || prompt.isNull()) {
      throw new BadRequestException("prompt", "'prompt' is required");
    }
    if (prompt.isArray() && prompt.size() == 1 && prompt.get(0).isTextual()) {
      return prompt.get(0).asText();
    }
    if (!prompt.isTextual() || prompt.asText().isEmpty()) {
      throw new BadRequestException("prompt", "'prompt' must be a non-empty string (or an array of one)");
    }
    return prompt.asText();
  }

  @Override
  ObjectNode streamedChoice(final String text, final boolean first, final String finishReason) {
    return wholeChoice(text, finishReason);
  }

  @Override
  ObjectNode wholeChoice(final String text, final String finishReason) {
    final ObjectNode choice = Json.object();
    choice.put("text", text);
    choice.put("index", 0);
    choice.putNull("logprobs");
    choice.put("finish_reason", finishReason == null ? null : finishReason(finishReason));
    return choice;
  }

  @Override
  String chunkObject() {
    return "text_completion";
  }
}
