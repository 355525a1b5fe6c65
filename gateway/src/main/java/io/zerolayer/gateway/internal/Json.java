package io.zerolayer.gateway.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/** The gateway's one JSON mapper (thread-safe once built) and the extension every answer carries. */
public final class Json {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {
  }

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** Parses a body; the exception says the body is not JSON. */
  public static JsonNode parse(final byte[] body) throws BadRequestException {
    try {
      final JsonNode node = MAPPER.readTree(body);
      if (node == null || !node.isObject()) {
        throw new BadRequestException(null, "the request body must be a JSON object");
      }
      return node;
    } catch (final JsonProcessingException e) {
      throw new BadRequestException(null, "the request body is not valid JSON: " + e.getOriginalMessage());
    } catch (final IOException e) {
      throw new BadRequestException(null, "the request body could not be read: " + e.getMessage());
    }
  }

  /** One line of JSON. */
  public static String line(final JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (final JsonProcessingException e) {
      throw new IllegalStateException("A JSON tree could not be written", e);
    }
  }

  /** The {@code zerolayer} field of a final chunk or body: how the answer was routed to its end. */
  static ObjectNode routing(final Answer answer, final Answer.End end) {
    final ObjectNode routing = object();
    routing.put("request_id", answer.requestId());
    routing.put("routing", answer.routingName());
    routing.put("instance", answer.instanceId());
    routing.put("cutover", end.cutOver());
    routing.put("final_instance", end.finalInstance());
    routing.put("epoch", end.epoch());
    return routing;
  }
}
