package io.zerolayer.contract.prefix;

import static java.util.Objects.requireNonNull;

/**
 * The blocks of a prompt's text as prefix caches and routers name them: the text cut into blocks
 * of {@link #BLOCK_CHARS} characters (a whole block only; the rest is never cached), each named
 * by a 64-bit hash chained over every block before it, so equal hashes mean equal text from the
 * start of the prompt. Two prompts share as many leading blocks as they share leading text,
 * rounded down to whole blocks. A block of 64 characters is about 14 tokens of English text, near
 * the 16-token blocks of vLLM's paged KV cache.
 */
public final class PrefixBlocks {

  /** Characters per block. */
  public static final int BLOCK_CHARS = 64;

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private PrefixBlocks() {
  }

  /** The chained hashes of the prompt's whole blocks, first block first; empty for a prompt shorter than a block. */
  public static long[] of(final String prompt) {
    requireNonNull(prompt, "prompt");
    final long[] hashes = new long[prompt.length() / BLOCK_CHARS];
    long chain = FNV_OFFSET;
    for (int block = 0; block < hashes.length; block++) {
      long hash = chain;
      for (int i = block * BLOCK_CHARS; i < (block + 1) * BLOCK_CHARS; i++) {
        final char c = prompt.charAt(i);
        hash = (hash ^ (c & 0xff)) * FNV_PRIME;
        hash = (hash ^ (c >>> 8)) * FNV_PRIME;
      }
      // A final mix, so that blocks differing in one character differ in every bit.
      hash ^= hash >>> 33;
      hash *= 0xff51afd7ed558ccdL;
      hash ^= hash >>> 33;
      hashes[block] = hash;
      chain = hash;
    }
    return hashes;
  }

  /**
   * The tokens of a prompt that {@code cachedBlocks} leading blocks cover, estimated from the
   * share of its characters they hold: a prompt of {@code promptChars} characters and
   * {@code promptTokens} tokens.
   */
  public static int cachedTokens(final int cachedBlocks, final int promptChars, final int promptTokens) {
    if (cachedBlocks <= 0 || promptChars <= 0) {
      return 0;
    }
    final long chars = Math.min((long) cachedBlocks * BLOCK_CHARS, promptChars);
    return (int) Math.min(promptTokens, chars * promptTokens / promptChars);
  }
}
