package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.ChatMessage;
import io.zerolayer.contract.avro.InferenceRequest;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Stage 0: whether a request can be served at all, and whether its reply topic can be written
 * to. A reason is written for the person who sent the request, saying what to change.
 */
public final class RequestValidator {

  private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

  private final int maxOutputTokens;
  private final int maxPromptChars;
  private final Set<String> internalTopics;

  /** The longest session key a request may carry. */
  static final int MAX_SESSION_ID_CHARS = 256;

  /**
   * @param internalTopics topics a reply may never be written to (the pipeline's own)
   */
  public RequestValidator(final int maxOutputTokens, final int maxPromptChars, final Set<String> internalTopics) {
    this.maxOutputTokens = maxOutputTokens;
    this.maxPromptChars = maxPromptChars;
    this.internalTopics = Set.copyOf(internalTopics);
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
    if (request.getSessionId() != null && request.getSessionId().length() > MAX_SESSION_ID_CHARS) {
      return Optional.of("sessionId has " + request.getSessionId().length() + " characters, more than the limit of "
          + MAX_SESSION_ID_CHARS + ": use a shorter key, such as a hash of the conversation's id");
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

  /**
   * Why a request's reply topic cannot be written to, or empty when it can (as far as its name
   * says: whether it exists is the cluster's to say).
   */
  public Optional<String> replyTopicProblem(final String replyTopic) {
    if (!TOPIC_NAME.matcher(replyTopic).matches()) {
      return Optional.of("replyTopic '" + replyTopic + "' is not a valid topic name: use letters, digits, '.', '_'"
          + " and '-'");
    }
    if (internalTopics.contains(replyTopic)) {
      return Optional.of("replyTopic '" + replyTopic + "' is one of the pipeline's own topics: name a topic of"
          + " yours, or none to read the response topic");
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
