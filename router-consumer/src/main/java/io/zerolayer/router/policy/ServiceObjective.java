package io.zerolayer.router.policy;

/**
 * What a request must get to count as served well, the terms of goodput: its first token within
 * {@code ttftMs} of its submission, and every later token within {@code tpotMs} of the one before,
 * on average.
 *
 * @param ttftMs the most time to the first token, in ms
 * @param tpotMs the most time per output token after the first, in ms
 */
public record ServiceObjective(double ttftMs, double tpotMs) {

  /** A first token within a second, then at least 20 tokens a second: what interactive chat needs. */
  public static final ServiceObjective DEFAULT = new ServiceObjective(1_000, 50);

  public ServiceObjective {
    if (!(ttftMs > 0) || !(tpotMs > 0)) {
      throw new IllegalArgumentException("service objective must be positive, not TTFT " + ttftMs + " ms and TPOT "
          + tpotMs + " ms");
    }
  }

  /** Whether predictions of {@code ttftMs} to the first token and {@code tpotMs} a token after it meet it. */
  public boolean metBy(final double predictedTtftMs, final double predictedTpotMs) {
    return predictedTtftMs <= ttftMs && predictedTpotMs <= tpotMs;
  }
}
