package io.zerolayer.fleet.load;

import java.util.SplittableRandom;

/**
 * An inclusive range of token counts.
 *
 * @param min the smallest count, at least 1
 * @param max the largest count, at least {@code min}
 */
public record TokenRange(int min, int max) {

  public TokenRange {
    if (min < 1 || max < min) {
      throw new IllegalArgumentException("A token range needs 1 <= min <= max, got [" + min + ", " + max + "]");
    }
  }

  /** The count itself when it is in range, else the nearer bound. */
  public int clamp(final int tokens) {
    return Math.max(min, Math.min(max, tokens));
  }

  /** A count drawn uniformly from the range. */
  int uniform(final SplittableRandom random) {
    return random.nextInt(min, max + 1);
  }

  /**
   * A count drawn log-uniformly from the range: as many draws between 16 and 32 as between
   * 256 and 512, the long-tailed shape output lengths have in served traffic.
   */
  int logUniform(final SplittableRandom random) {
    final double low = Math.log(min);
    final double high = Math.log(max + 1.0);
    return clamp((int) Math.floor(Math.exp(low + random.nextDouble() * (high - low))));
  }

  @Override
  public String toString() {
    return "[" + min + ", " + max + "]";
  }
}
