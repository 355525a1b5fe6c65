package io.zerolayer.heatmap.internal;

import io.zerolayer.contract.avro.InstanceState;

/**
 * Where an instance stands in a fragmentation episode after one sample (see
 * {@link InstanceMachine}).
 *
 * @param critical this sample is above 92 %
 * @param ejected the instance is (or stays) ejected for fragmentation
 * @param recovering it came back and is capped at 0.3
 * @param criticalSinceMs start of the observation, -1 outside an episode
 * @param lastCriticalMs latest sample above 92 %, -1 outside an episode
 * @param calmSinceMs while recovering, since when fragmentation is below 85 %, else -1
 */
record Episode(boolean critical, boolean ejected, boolean recovering, long criticalSinceMs, long lastCriticalMs,
    long calmSinceMs) {

  private static final Episode NONE = new Episode(false, false, false, -1, -1, -1);

  static Episode next(final Machine last, final Signals signals, final long nowMs, final RuleTimings timings) {
    final boolean critical = signals.fragmentation() > ScoreRules.FRAGMENTATION_CRITICAL;
    if (!last.inEpisode() && !critical) {
      return NONE;
    }
    if (critical) {
      // Critical samples less than an observation apart continue one observation; after a
      // longer calm a new spike starts a new one, so a transient spike is never an instant ejection.
      final boolean continues = last.inEpisode() && nowMs - last.lastCriticalMs() < timings.observationMs();
      final long since = continues ? last.criticalSinceMs() : nowMs;
      final boolean ejected = last.state() == InstanceState.EJECTED && last.inEpisode()
          || nowMs - since >= timings.observationMs();
      return new Episode(true, ejected, !ejected && last.state() == InstanceState.RECOVERING, since, nowMs, -1);
    }
    if (last.state() == InstanceState.EJECTED && signals.fragmentationMax() > ScoreRules.FRAGMENTATION_CRITICAL) {
      return new Episode(false, true, false, last.criticalSinceMs(), last.lastCriticalMs(), -1);
    }
    final boolean calm = signals.fragmentation() < ScoreRules.FRAGMENTATION_PRE_CLEAR;
    final long calmSince = !calm ? -1
        : last.state() == InstanceState.RECOVERING && last.calmSinceMs() >= 0 ? last.calmSinceMs() : nowMs;
    if (calmSince >= 0 && nowMs - calmSince >= timings.recoveryHoldMs()) {
      return NONE;
    }
    return new Episode(false, false, true, last.criticalSinceMs(), last.lastCriticalMs(), calmSince);
  }
}
