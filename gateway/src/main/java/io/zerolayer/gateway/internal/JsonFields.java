package io.zerolayer.gateway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.zerolayer.contract.avro.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/** Typed reads of a request body's fields, each failing with the field's name and what it must be. */
final class JsonFields {

  private JsonFields() {
  }

  static String requiredString(final JsonNode body, final String field) throws BadRequestException {
    final JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      throw new BadRequestException(field, "'" + field + "' is required");
    }
    if (!node.isTextual() || node.asText().isBlank()) {
      throw new BadRequestException(field, "'" + field + "' must be a non-empty string");
    }
    return node.asText();
  }

  static boolean optionalBoolean(final JsonNode body, final String field) throws BadRequestException {
    final JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return false;
    }
    if (!node.isBoolean()) {
      throw new BadRequestException(field, "'" + field + "' must be true or false");
    }
    return node.asBoolean();
  }

  static long optionalLong(final JsonNode body, final String field) throws BadRequestException {
    final JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      return 0;
    }
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      throw new BadRequestException(field, "'" + field + "' must be an integer");
    }
    return node.asLong();
  }

  /**
   * A token limit: an integer from 1 to {@code max}.
   *
   * @return the value, or {@code fallback} when the field is absent and {@code fallback > 0}
   */
  static int tokenLimit(final JsonNode body, final String field, final int fallback, final int max)
      throws BadRequestException {
    final JsonNode node = body.get(field);
    if (node == null || node.isNull()) {
      if (fallback > 0) {
        return fallback;
      }
      throw new BadRequestException(field, "'" + field + "' is required");
    }
    if (!node.isIntegralNumber() || !node.canConvertToInt()) {
      throw new BadRequestException(field, "'" + field + "' must be an integer from 1 to " + max);
    }
    final int value = node.asInt();
    if (value < 1 || value > max) {
      throw new BadRequestException(field, "'" + field + "' is " + value + "; it must be from 1 to " + max);
    }
    return value;
  }

  /**
   * A message's or a system prompt's content: a string, or an array of text blocks
   * ({@code {"type": "text", "text": "..."}}), joined.
   */
  static String text(final JsonNode content, final String field) throws BadRequestException {
    if (content == null || content.isNull()) {
      throw new BadRequestException(field, "'" + field + "' is required");
    }
    if (content.isTextual()) {
      return content.asText();
    }
    if (!content.isArray()) {
      throw new BadRequestException(field, "'" + field + "' must be a string or an array of text blocks");
    }
    final StringBuilder text = new StringBuilder();
    for (final JsonNode block : content) {
      if (!block.isObject() || !"text".equals(block.path("type").asText()) || !block.path("text").isTextual()) {
        throw new BadRequestException(field, "'" + field + "' may hold only text blocks ({\"type\": \"text\","
            + " \"text\": \"...\"}); images, audio and tool results are not supported");
      }
      text.append(block.get("text").asText());
    }
    return text.toString();
  }

  /** The {@code messages} array: each an object with a role of {@code roles} and text content. */
  static List<ChatMessage> messages(final JsonNode body, final List<String> roles) throws BadRequestException {
    final JsonNode messages = body.get("messages");
    if (messages == null || messages.isNull()) {
      throw new BadRequestException("messages", "'messages' is required");
    }
    if (!messages.isArray() || messages.isEmpty()) {
      throw new BadRequestException("messages", "'messages' must be a non-empty array");
    }
    final List<ChatMessage> parsed = new ArrayList<>(messages.size());
    for (int i = 0; i < messages.size(); i++) {
      final JsonNode message = messages.get(i);
      final String field = "messages[" + i + "]";
      if (!message.isObject()) {
        throw new BadRequestException(field, "'" + field + "' must be an object with a role and content");
      }
      final String role = message.path("role").asText("");
      if (!roles.contains(role)) {
        throw new BadRequestException(field + ".role", "'" + field + ".role' is '" + role + "'; it must be one of "
            + roles);
      }
      parsed.add(new ChatMessage(role, text(message.get("content"), field + ".content")));
    }
    return parsed;
  }
}
