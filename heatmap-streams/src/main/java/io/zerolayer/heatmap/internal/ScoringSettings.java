package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * What the scoring processor needs besides its stores.
 *
 * @param emitInterval how often changed rows are published (wall clock)
 * @param windowSize short window size
 * @param windowAdvance short window advance (a slice)
 * @param historyWindow history window size
 * @param timings the rules' durations
 * @param smoothingHalfLifeMs half-life of the smoothed metrics
 * @param zonePenaltyFactor weight factor of every instance of a penalised zone
 * @param partitions partitions of the telemetry topic; decides which task reports a zone
 * @param forgetAfterMs silence after which an ejected instance is removed from the stores and the heatmap
 */
public record ScoringSettings(Duration emitInterval, Duration windowSize, Duration windowAdvance,
    Duration historyWindow, RuleTimings timings, long smoothingHalfLifeMs, double zonePenaltyFactor, int partitions,
    long forgetAfterMs) {

  public ScoringSettings {
    requireNonNull(emitInterval, "emitInterval");
    requireNonNull(timings, "timings");
    if (windowSize.toMillis() % windowAdvance.toMillis() != 0) {
      throw new IllegalArgumentException("The short window size (" + windowSize.toMillis()
          + " ms) must be a multiple of its advance (" + windowAdvance.toMillis() + " ms)");
    }
  }
}
