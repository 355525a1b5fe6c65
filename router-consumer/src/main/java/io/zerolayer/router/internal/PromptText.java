package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.ChatMessage;
import io.zerolayer.contract.avro.InferenceRequest;

/** The text a worker is given, and the router's estimate of its token count. */
public final class PromptText {

  /**
   * Characters per token for the estimate: about 4 for English text with BPE tokenizers of the
   * Llama and GPT families. A tokenizer library would be exact; none is used yet.
   */
  static final double CHARS_PER_TOKEN = 4.0;

  private PromptText() {
  }

  /** The prompt, or the messages as "role: content" lines. */
  public static String of(final InferenceRequest request) {
    if (request.getPrompt() != null && !request.getPrompt().isEmpty()) {
      return request.getPrompt();
    }
    final StringBuilder text = new StringBuilder();
    for (final ChatMessage message : request.getMessages()) {
      text.append(message.getRole()).append(": ").append(message.getContent()).append('\n');
    }
    return text.toString();
  }

  /** Estimated prompt tokens, at least 1. */
  public static int estimateTokens(final String text) {
    return Math.max(1, (int) Math.ceil(text.length() / CHARS_PER_TOKEN));
  }
}
