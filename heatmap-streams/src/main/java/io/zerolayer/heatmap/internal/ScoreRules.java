package io.zerolayer.heatmap.internal;

import io.zerolayer.contract.score.ScoreRows;

/**
 * The scoring rules of one telemetry sample (DESIGN section 5), as pure functions. Fractions
 * are in [0, 1]; every factor is in [0, 1].
 */
public final class ScoreRules {

  static final double FRAGMENTATION_SOFT = 0.70;
  static final double FRAGMENTATION_PRE_CLEAR = 0.85;
  static final double FRAGMENTATION_CRITICAL = ScoreRows.FRAGMENTATION_CRITICAL;
  static final double TGSV_SMOOTH_MS = 15.0;
  static final double TGSV_CUTOVER_MS = 50.0;
  static final double GPU_SATURATED = 0.98;

  private ScoreRules() {
  }

  /** 1.0 below 70 %, linear to 0.3 at 85 %, 0.1 up to 92 %, 0 above. */
  public static double fragmentationFactor(final double fragmentation) {
    if (fragmentation < FRAGMENTATION_SOFT) {
      return 1.0;
    }
    if (fragmentation < FRAGMENTATION_PRE_CLEAR) {
      final double progress = (fragmentation - FRAGMENTATION_SOFT) / (FRAGMENTATION_PRE_CLEAR - FRAGMENTATION_SOFT);
      return 1.0 - 0.7 * progress;
    }
    if (fragmentation <= FRAGMENTATION_CRITICAL) {
      return 0.1;
    }
    return 0.0;
  }

  /** 1.0 below 15 ms, {@code 1 - (t - 15) / 35} up to 50 ms, 0 above. */
  public static double tgsvFactor(final double tgsvMs) {
    if (tgsvMs < TGSV_SMOOTH_MS) {
      return 1.0;
    }
    if (tgsvMs <= TGSV_CUTOVER_MS) {
      return 1.0 - (tgsvMs - TGSV_SMOOTH_MS) / (TGSV_CUTOVER_MS - TGSV_SMOOTH_MS);
    }
    return 0.0;
  }

  /** Above 98 % utilisation an instance takes no new work. */
  public static boolean saturated(final double gpuUtilization) {
    return gpuUtilization > GPU_SATURATED;
  }
}
