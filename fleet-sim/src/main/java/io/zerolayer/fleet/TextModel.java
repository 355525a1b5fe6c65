package io.zerolayer.fleet;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The simulated model's text: a hash chain, so that as in a real model each token depends on
 * the prompt, the seed and every token before it. A resumed attempt must be given the tokens
 * the sequence already has to continue it ({@link #after}); given them, it continues with
 * exactly the tokens an uninterrupted run would have produced, and a stream with a token of
 * another attempt spliced in, repeated or left out no longer matches {@link #text}.
 */
public final class TextModel {

  private static final List<String> WORDS = List.of(
      " the", " a", " fleet", " of", " GPUs", " routes", " tokens", " with", " low", " latency", " and",
      " every", " request", " finds", " its", " instance", " quickly", ",", ".", " stream", " resumes",
      " on", " backup", " without", " loss", " heat", " map", " score", " weight", " queue", " warm",
      " cache", " zone", " kafka", " record", " epoch");

  private TextModel() {
  }

  /** The model's state after the prompt and the tokens so far: what decides the next token. */
  public static final class Chain {
    private long state;

    private Chain(final long state) {
      this.state = state;
    }

    /** The next token, which the chain then holds as its latest. */
    public String next() {
      final String token = WORDS.get((int) ((state & Long.MAX_VALUE) % WORDS.size()));
      absorb(token);
      return token;
    }

    private void absorb(final String token) {
      state = mix(state ^ crc(token) * 0xC2B2AE3D27D4EB4FL);
    }
  }

  /** The chain of a new sequence, before its first token. */
  public static Chain start(final String prompt, final long seed) {
    return new Chain(mix(crc(requireNonNull(prompt, "prompt")) ^ seed * 0x9E3779B97F4A7C15L));
  }

  /** The chain of a sequence that already has {@code prefix}, as a resumed attempt must continue it. */
  public static Chain after(final String prompt, final long seed, final List<String> prefix) {
    final Chain chain = start(prompt, seed);
    prefix.forEach(chain::absorb);
    return chain;
  }

  /**
   * How many tokens the sequence has before it stops on its own: between half of
   * {@code maxOutputTokens} and all of it; all of it when the request ignores the end of sequence.
   */
  public static int length(final String prompt, final long seed, final int maxOutputTokens, final boolean ignoreEos) {
    if (ignoreEos) {
      return maxOutputTokens;
    }
    final int half = Math.max(1, maxOutputTokens / 2);
    final long draw = mix(crc(prompt) + seed) & Long.MAX_VALUE;
    return half + (int) (draw % (maxOutputTokens - half + 1));
  }

  /** The whole text of an uninterrupted run: every token up to where the sequence stops. */
  public static String text(final String prompt, final long seed, final int maxOutputTokens, final boolean ignoreEos) {
    final StringBuilder text = new StringBuilder();
    final Chain chain = start(prompt, seed);
    final int length = length(prompt, seed, maxOutputTokens, ignoreEos);
    for (int i = 0; i < length; i++) {
      text.append(chain.next());
    }
    return text.toString();
  }

  private static long crc(final String text) {
    final CRC32C crc = new CRC32C();
    crc.update(text.getBytes(StandardCharsets.UTF_8));
    return crc.getValue();
  }

  private static long mix(final long value) {
    long x = value;
    x ^= x >>> 33;
    x *= 0xFF51AFD7ED558CCDL;
    x ^= x >>> 33;
    x *= 0xC4CEB9FE1A85EC53L;
    x ^= x >>> 33;
    return x;
  }
}
