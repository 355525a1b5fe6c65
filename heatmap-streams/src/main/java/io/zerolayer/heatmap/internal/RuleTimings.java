package io.zerolayer.heatmap.internal;

/**
 * The durations of the heatmap's rules.
 *
 * @param observationMs how long fragmentation above 92 % is watched before ejection
 * @param recoveryHoldMs how long a recovering instance stays capped at 0.3 once fragmentation is below 85 %
 * @param suspectAfterMs silence after which an instance is {@code SUSPECT}
 * @param ejectAfterMs silence after which an instance is {@code EJECTED}
 */
public record RuleTimings(long observationMs, long recoveryHoldMs, long suspectAfterMs, long ejectAfterMs) {

  public RuleTimings {
    if (observationMs <= 0 || recoveryHoldMs < 0 || suspectAfterMs <= 0 || ejectAfterMs <= suspectAfterMs) {
      throw new IllegalArgumentException("Rule timings must be positive with ejectAfterMs > suspectAfterMs: "
          + observationMs + ", " + recoveryHoldMs + ", " + suspectAfterMs + ", " + ejectAfterMs);
    }
  }
}
