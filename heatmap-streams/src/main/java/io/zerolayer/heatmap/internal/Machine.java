package io.zerolayer.heatmap.internal;

import io.zerolayer.contract.avro.InstanceState;

/**
 * What the state machine remembers of one instance between samples.
 *
 * @param state the current state
 * @param sinceMs when it entered that state (wall clock)
 * @param weight the instance's own weight in [0, 1], before any zone penalty
 * @param reason why, for a person
 * @param criticalSinceMs start of the current fragmentation episode's observation (a sample above
 *     92 %); kept while the instance recovers; -1 outside an episode
 * @param lastCriticalMs the latest sample above 92 % in the episode; -1 outside one
 * @param calmSinceMs while recovering, since when fragmentation is below 85 %; -1 otherwise
 * @param preClearSent a {@code PRE_CLEAR} went out and fragmentation has not dropped below 80 % since
 * @param cutOver TGSV above 50 ms: sequences in flight on it are to be cut over
 * @param networkDegraded smoothed TCP retransmit rate above 8 %, or every sample's for the
 *     sustained-loss time
 * @param retransmitHighSinceMs since when every sample's TCP retransmit rate is above 8 %; -1
 *     while the latest sample's is not
 */
public record Machine(InstanceState state, long sinceMs, double weight, String reason, long criticalSinceMs,
    long lastCriticalMs, long calmSinceMs, boolean preClearSent, boolean cutOver, boolean networkDegraded,
    long retransmitHighSinceMs) {

  /** Before an instance's first sample. */
  public static Machine unknown(final long nowMs) {
    return new Machine(InstanceState.HEALTHY, nowMs, 0.0, "no telemetry yet", -1, -1, -1, false, false, false, -1);
  }

  /** Inside a fragmentation episode: observed above 92 %, not yet recovered. */
  boolean inEpisode() {
    return criticalSinceMs >= 0;
  }
}
