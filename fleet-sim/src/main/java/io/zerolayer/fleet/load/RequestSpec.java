package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

/**
 * What one generated request asks for.
 *
 * @param band the prompt's size class
 * @param prompt the prompt text
 * @param promptTokens the prompt's {@code cl100k_base} token count, as the router counts it
 * @param maxOutputTokens the output limit
 * @param seed the generation seed
 * @param ignoreEos whether the engine must generate the whole limit, as a replay of recorded lengths asks
 */
public record RequestSpec(PromptBand band, String prompt, int promptTokens, int maxOutputTokens, long seed,
    boolean ignoreEos) {

  public RequestSpec {
    requireNonNull(band, "band");
    requireNonNull(prompt, "prompt");
    if (promptTokens < 1 || maxOutputTokens < 1) {
      throw new IllegalArgumentException("A request needs at least 1 prompt and 1 output token, got "
          + promptTokens + " and " + maxOutputTokens);
    }
  }

  /** A request the model may end before its limit. */
  public RequestSpec(final PromptBand band, final String prompt, final int promptTokens, final int maxOutputTokens,
      final long seed) {
    this(band, prompt, promptTokens, maxOutputTokens, seed, false);
  }
}
