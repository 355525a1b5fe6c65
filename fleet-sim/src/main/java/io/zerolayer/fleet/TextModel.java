package io.zerolayer.fleet;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The simulated model's text: token i of a sequence is a pure function of (prompt, seed, i),
 * so a sequence resumed on another instance continues with exactly the tokens an
 * uninterrupted run would have produced.
 */
public final class TextModel {

  private static final List<String> WORDS = List.of(
      " the", " a", " fleet", " of", " GPUs", " routes", " tokens", " with", " low", " latency", " and",
      " every", " request", " finds", " its", " instance", " quickly", ",", ".", " stream", " resumes",
      " on", " backup", " without", " loss", " heat", " map", " score", " weight", " queue", " warm",
      " cache", " zone", " kafka", " record", " epoch");

  private TextModel() {
  }

  /** Token {@code index} of the sequence. */
  public static String token(final String prompt, final long seed, final int index) {
    return WORDS.get((int) (mix(prompt, seed, index) % WORDS.size()));
  }

  /**
   * How many tokens the sequence has before it stops on its own: between half of
   * {@code maxOutputTokens} and all of it.
   */
  public static int length(final String prompt, final long seed, final int maxOutputTokens) {
    final int half = Math.max(1, maxOutputTokens / 2);
    return half + (int) (mix(prompt, seed, -1) % (maxOutputTokens - half + 1));
  }

  /** The whole text of an uninterrupted run: every token up to where the sequence stops. */
  public static String text(final String prompt, final long seed, final int maxOutputTokens) {
    final StringBuilder text = new StringBuilder();
    final int length = length(prompt, seed, maxOutputTokens);
    for (int i = 0; i < length; i++) {
      text.append(token(prompt, seed, i));
    }
    return text.toString();
  }

  private static long mix(final String prompt, final long seed, final int index) {
    final CRC32C crc = new CRC32C();
    crc.update(prompt.getBytes(StandardCharsets.UTF_8));
    long x = crc.getValue() ^ (seed * 0x9E3779B97F4A7C15L) ^ ((long) index * 0xC2B2AE3D27D4EB4FL);
    x ^= x >>> 33;
    x *= 0xFF51AFD7ED558CCDL;
    x ^= x >>> 33;
    return x & Long.MAX_VALUE;
  }
}
