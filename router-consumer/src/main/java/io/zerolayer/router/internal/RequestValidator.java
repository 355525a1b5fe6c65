package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.ChatMessage;
import io.zerolayer.contract.avro.InferenceRequest;
import java.util.Optional;

/**
 * Stage 0: whether a request can be served at all. A reason is written for the person who
 * sent the request, saying what to change.
 */
public final class RequestValidator {

  private final int maxOutputTokens;
  private final int maxPromptChars;

  public RequestValidator(final int maxOutputTokens, final int maxPromptChars) {
    this.maxOutputTokens = maxOutputTokens;
    this.maxPromptChars = maxPromptChars;
  }

  /** Why the request must be rejected, or empty when it may be routed. */
  public Optional<String> rejection(final String key, final InferenceRequest request) {
    if (isBlank(request.getSequenceId())) {
      return Optional.of("sequenceId is empty: give every request a unique sequence id");
    }
    if (!request.getSequenceId().equals(key)) {
      return Optional.of("record key '" + key + "' differs from sequenceId '" + request.getSequenceId()
          + "': key the record by its sequence id");
    }
    if (isBlank(request.getTenantId())) {
      return Optional.of("tenantId is empty: name the tenant the request is billed to");
    }
    if (request.getMaxOutputTokens() < 1 || request.getMaxOutputTokens() > maxOutputTokens) {
      return Optional.of("maxOutputTokens is " + request.getMaxOutputTokens() + ": it must be between 1 and "
          + maxOutputTokens);
    }
    final int promptChars = promptChars(request);
    if (promptChars == 0) {
      return Optional.of("the request has neither a prompt nor messages: send one of them");
    }
    if (promptChars > maxPromptChars) {
      return Optional.of("the prompt has " + promptChars + " characters, more than the limit of " + maxPromptChars
          + ": shorten it");
    }
    return Optional.empty();
  }

  static int promptChars(final InferenceRequest request) {
    int chars = request.getPrompt() == null ? 0 : request.getPrompt().length();
    for (final ChatMessage message : request.getMessages()) {
      chars += message.getContent().length();
    }
    return chars;
  }

  private static boolean isBlank(final String value) {
    return value == null || value.isBlank();
  }
}
