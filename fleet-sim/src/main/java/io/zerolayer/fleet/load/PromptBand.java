package io.zerolayer.fleet.load;

/**
 * The size class of a prompt, by its {@code cl100k_base} token count, as the benchmark's
 * workload names them: short below 200 tokens, medium 200 to 1000, long above that. The
 * standard mix draws its long prompts from above 1500 tokens; a replayed trace also has
 * prompts between 1000 and 1500, which count as long.
 */
public enum PromptBand {
  SHORT,
  MEDIUM,
  LONG;

  private static final int MEDIUM_FROM_TOKENS = 200;
  private static final int LONG_ABOVE_TOKENS = 1000;

  /** The band of a prompt of {@code promptTokens} tokens. */
  public static PromptBand of(final int promptTokens) {
    if (promptTokens < MEDIUM_FROM_TOKENS) {
      return SHORT;
    }
    return promptTokens <= LONG_ABOVE_TOKENS ? MEDIUM : LONG;
  }

  /** Whether every count of {@code range} falls in this band. */
  public boolean covers(final TokenRange range) {
    return of(range.min()) == this && of(range.max()) == this;
  }
}
