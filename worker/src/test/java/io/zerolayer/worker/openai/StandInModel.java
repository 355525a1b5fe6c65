package io.zerolayer.worker.openai;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A deterministic stand-in for a language model under greedy decoding: the next token is a
 * pure function of the whole text so far (prompt and generated), so continuing from
 * prompt + prefix gives exactly what an uninterrupted run gives. Some tokens are multi-byte in
 * UTF-8, so byte-level mistakes show.
 */
final class StandInModel {

  /** The model ends the text (finish reason {@code stop}) once it is this long. */
  static final int STOP_AT_CHARS = 160;
  private static final List<String> VOCABULARY = List.of(" the", " stream", " café", " 日本", " token", " naïve",
      " 🚀", " order", ",", ".", " Kafka", " resume", " über", "\n");

  private StandInModel() {
  }

  /** True when the model would end the text here. */
  static boolean ends(final String text) {
    return text.length() >= STOP_AT_CHARS;
  }

  /** The token the model generates after this text. */
  static String next(final String text) {
    final CRC32 crc = new CRC32();
    crc.update(text.getBytes(StandardCharsets.UTF_8));
    return VOCABULARY.get((int) (crc.getValue() % VOCABULARY.size()));
  }

  /** What an uninterrupted run generates, at most {@code maxTokens} tokens. */
  static List<String> continuation(final String prompt, final int maxTokens) {
    final List<String> tokens = new ArrayList<>();
    final StringBuilder text = new StringBuilder(prompt);
    while (tokens.size() < maxTokens && !ends(text.toString())) {
      final String token = next(text.toString());
      tokens.add(token);
      text.append(token);
    }
    return tokens;
  }
}
