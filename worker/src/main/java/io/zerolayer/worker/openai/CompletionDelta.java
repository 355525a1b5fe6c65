package io.zerolayer.worker.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zerolayer.worker.Quoted;

/**
 * One event of a streamed completion ({@code "object": "text_completion"}): the text it adds
 * and, on the last one, why generation stopped.
 *
 * @param text the text of the new token(s); empty for an event that only carries usage or the finish
 * @param finishReason {@code stop}, {@code length}, ... on the last event, else null
 */
record CompletionDelta(String text, String finishReason) {

  /**
   * Reads an event's data; an error the server reports inside the stream (vLLM and SGLang send
   * {@code {"error": {...}}} or {@code {"object": "error", ...}}) becomes an exception.
   */
  static CompletionDelta parse(final ObjectMapper json, final String data, final String server)
      throws InferenceServerException {
    final JsonNode event;
    try {
      event = json.readTree(data);
    } catch (final JsonProcessingException e) {
      throw new InferenceServerException("Inference server at " + server + " streamed an event that is not JSON: "
          + Quoted.start(data), e);
    }
    final JsonNode error = event.get("error");
    if (error != null && !error.isNull() || "error".equals(event.path("object").asText())) {
      final JsonNode detail = error != null && error.isObject() ? error : event;
      throw new InferenceServerException("Inference server at " + server + " reported an error in its stream: "
          + Quoted.start(detail.path("message").asText(data)));
    }
    final JsonNode choice = event.path("choices").path(0);
    if (choice.isMissingNode()) {
      return new CompletionDelta("", null);
    }
    final JsonNode finish = choice.get("finish_reason");
    return new CompletionDelta(choice.path("text").asText(""),
        finish == null || finish.isNull() ? null : finish.asText());
  }
}
