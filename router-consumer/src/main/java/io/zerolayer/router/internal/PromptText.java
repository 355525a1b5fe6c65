package io.zerolayer.router.internal;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import io.zerolayer.contract.avro.ChatMessage;
import io.zerolayer.contract.avro.InferenceRequest;

/**
 * The text a worker is given, and its token count. Tokens are counted with the {@code cl100k_base}
 * BPE (jtokkit): exact for models that use it, and close for other BPE tokenizers (Llama-family
 * tokenizers usually count within a few tens of percent of it on English text). The encoding is
 * loaded once per process, when the class is first used (a router's start), and shared: it is
 * immutable, and loading it takes a noticeable share of a start.
 */
public final class PromptText {

  /** Only this encoding is loaded: the default registry would parse every encoding jtokkit knows. */
  private static final Encoding ENCODING = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

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

  /** Prompt tokens, at least 1. */
  public int tokens(final String text) {
    return Math.max(1, ENCODING.countTokens(text));
  }
}
