package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceState;
import java.util.ArrayList;
import java.util.List;

/**
 * The instance state machine of DESIGN section 5: fragmentation bands with the 3-second
 * observation above 92 %, TGSV bands with the cut-over trigger, saturation, network degradation
 * and staleness. Plain Java; the heatmap processor feeds it samples and wall-clock ticks.
 *
 * <p>A fragmentation episode starts with a sample above 92 %: weight 0 ({@code UNAVAILABLE})
 * and a 3-second observation. A sample at or below 92 % within it means the instance came back:
 * {@code RECOVERING}, factor at most 0.3, never ejected for that episode's first 3 seconds. A
 * sample above 92 % while it recovers gives weight 0 again without changing the state, and the
 * observation goes on from the episode's start as long as critical samples keep coming less than
 * an observation apart, so an instance hovering around 92 % is ejected rather than flapping.
 * An ejected instance leaves {@code EJECTED} once its whole short window is at or below 92 %;
 * the episode ends after fragmentation stayed below 85 % for the recovery hold.
 */
public final class InstanceMachine {

  /** The fragmentation factor of an instance that came back from above 92 %. */
  static final double RECOVERING_CAP = 0.3;
  static final double NETWORK_DEGRADED = 0.08;
  /**
   * Every sample above 8 % for this long also marks an instance network-degraded: four samples
   * at 20 a second, where the smoothed rate takes about 550 ms to pass 8 % when 15 % of the
   * packets are lost. A single high sample is not enough.
   */
  static final long NETWORK_SUSTAINED_MS = 150;
  /** A new {@code PRE_CLEAR} needs fragmentation to have dropped below this since the last one. */
  static final double PRE_CLEAR_REARM = 0.80;
  private static final String UNKNOWN = "UNKNOWN";

  private final RuleTimings timings;

  public InstanceMachine(final RuleTimings timings) {
    this.timings = requireNonNull(timings, "timings");
  }

  /**
   * @param previous what was remembered, or null for an instance never seen
   * @param signals the rules' inputs after this sample
   * @param nowMs wall-clock time
   */
  public Assessment onSample(final String instanceId, final String zone, final Machine previous,
      final Signals signals, final long nowMs) {
    final Machine last = previous == null ? Machine.unknown(nowMs) : previous;
    final Episode episode = Episode.next(last, signals, nowMs, timings);
    final List<String> reasons = new ArrayList<>();
    double weight = weight(signals, episode.recovering(), reasons);
    if (episode.critical()) {
      weight = 0.0;
      reasons.add(String.format("fragmentation %.1f%% > %.0f%% since %d ms%s", 100 * signals.fragmentation(),
          100 * ScoreRules.FRAGMENTATION_CRITICAL, nowMs - episode.criticalSinceMs(),
          episode.ejected() ? ": ejected" : ": observing"));
    } else if (episode.ejected()) {
      weight = 0.0;
      reasons.add(String.format("ejected for fragmentation; the last second peaked at %.1f%%",
          100 * signals.fragmentationMax()));
    }
    final long highSinceMs = signals.retransmitLatest() <= NETWORK_DEGRADED ? -1
        : last.retransmitHighSinceMs() >= 0 ? last.retransmitHighSinceMs() : nowMs;
    final boolean networkDegraded = networkDegraded(signals, highSinceMs, nowMs, reasons);
    final InstanceState state = episode.ejected() ? InstanceState.EJECTED
        : episode.recovering() ? InstanceState.RECOVERING
        : episode.critical() || weight == 0.0 ? InstanceState.UNAVAILABLE
        : weight < 1.0 || networkDegraded ? InstanceState.DEGRADED : InstanceState.HEALTHY;
    final double fragmentation = signals.fragmentation();
    final boolean inPreClearBand = fragmentation >= ScoreRules.FRAGMENTATION_PRE_CLEAR && !episode.critical();
    final boolean preClear = inPreClearBand && !last.preClearSent();
    final String reason = reasons.isEmpty() ? "healthy" : String.join("; ", reasons);
    final Machine next = new Machine(state, state == last.state() && previous != null ? last.sinceMs() : nowMs,
        weight, reason, episode.criticalSinceMs(), episode.lastCriticalMs(), episode.calmSinceMs(),
        preClear || (last.preClearSent() && fragmentation >= PRE_CLEAR_REARM),
        signals.tgsvMs() > ScoreRules.TGSV_CUTOVER_MS, networkDegraded, highSinceMs);
    return new Assessment(next, preClear, transition(instanceId, zone, previous, next, signals, nowMs));
  }

  /**
   * A wall-clock tick: staleness, and the end of a fragmentation observation when no sample came.
   *
   * @param lastSeenMs when the instance's latest sample was processed
   * @param signals the rules' inputs as of its latest sample
   * @param readingLate whether the heatmap reads its telemetry late (behind its input): silence
   *     is then the heatmap's own backlog, and no instance is suspected or ejected for it
   */
  public Assessment onTick(final String instanceId, final String zone, final Machine machine,
      final long lastSeenMs, final Signals signals, final long nowMs, final boolean readingLate) {
    final long silentMs = readingLate ? 0 : nowMs - lastSeenMs;
    final InstanceState state = machine.state();
    if (silentMs >= timings.ejectAfterMs() && state != InstanceState.EJECTED) {
      return moved(instanceId, zone, machine, InstanceState.EJECTED,
          "no telemetry for " + silentMs + " ms: ejected", signals, nowMs);
    }
    if (silentMs >= timings.suspectAfterMs() && silentMs < timings.ejectAfterMs()
        && state != InstanceState.SUSPECT && state != InstanceState.EJECTED) {
      return moved(instanceId, zone, machine, InstanceState.SUSPECT,
          "no telemetry for " + silentMs + " ms: suspect", signals, nowMs);
    }
    if (machine.inEpisode() && state != InstanceState.EJECTED && state != InstanceState.SUSPECT
        && signals.fragmentation() > ScoreRules.FRAGMENTATION_CRITICAL
        && nowMs - machine.criticalSinceMs() >= timings.observationMs()) {
      return moved(instanceId, zone, machine, InstanceState.EJECTED,
          String.format("fragmentation %.1f%% > %.0f%% for %d ms: ejected", 100 * signals.fragmentation(),
              100 * ScoreRules.FRAGMENTATION_CRITICAL, nowMs - machine.criticalSinceMs()), signals, nowMs);
    }
    return new Assessment(machine, false, null);
  }

  private static boolean networkDegraded(final Signals signals, final long highSinceMs, final long nowMs,
      final List<String> reasons) {
    if (signals.retransmitRate() > NETWORK_DEGRADED) {
      reasons.add(String.format("TCP retransmit %.1f%% > %.0f%%: network-degraded", 100 * signals.retransmitRate(),
          100 * NETWORK_DEGRADED));
      return true;
    }
    if (highSinceMs >= 0 && nowMs - highSinceMs >= NETWORK_SUSTAINED_MS) {
      reasons.add(String.format("TCP retransmit above %.0f%% in every sample for %d ms (now %.1f%%): network-degraded",
          100 * NETWORK_DEGRADED, nowMs - highSinceMs, 100 * signals.retransmitLatest()));
      return true;
    }
    return false;
  }

  private static double weight(final Signals signals, final boolean recovering, final List<String> reasons) {
    double fragmentation = ScoreRules.fragmentationFactor(signals.fragmentation());
    if (recovering) {
      fragmentation = Math.min(fragmentation, RECOVERING_CAP);
      reasons.add(String.format("recovering from fragmentation above %.0f%%, now %.1f%% -> x%.2f",
          100 * ScoreRules.FRAGMENTATION_CRITICAL, 100 * signals.fragmentation(), fragmentation));
    } else if (fragmentation < 1.0) {
      reasons.add(String.format("fragmentation %.1f%% -> x%.2f", 100 * signals.fragmentation(), fragmentation));
    }
    final double tgsv = ScoreRules.tgsvFactor(signals.tgsvMs());
    if (tgsv < 1.0) {
      reasons.add(String.format("TGSV %.1f ms -> x%.2f%s", signals.tgsvMs(), tgsv,
          signals.tgsvMs() > ScoreRules.TGSV_CUTOVER_MS ? ", sequences in flight cut over" : ""));
    }
    if (ScoreRules.saturated(signals.gpuUtilization())) {
      reasons.add(String.format("GPU %.1f%% busy > %.0f%%: unavailable", 100 * signals.gpuUtilization(),
          100 * ScoreRules.GPU_SATURATED));
      return 0.0;
    }
    return Math.max(0.0, Math.min(1.0, fragmentation * tgsv));
  }

  /** Staleness keeps the episode (a silent instance that comes back is still in it). */
  private static Assessment moved(final String instanceId, final String zone, final Machine machine,
      final InstanceState state, final String reason, final Signals signals, final long nowMs) {
    final Machine next = new Machine(state, nowMs, 0.0, reason, machine.criticalSinceMs(), machine.lastCriticalMs(),
        machine.calmSinceMs(), machine.preClearSent(), machine.cutOver(), machine.networkDegraded(),
        machine.retransmitHighSinceMs());
    return new Assessment(next, false, transition(instanceId, zone, machine, next, signals, nowMs));
  }

  private static Transition transition(final String instanceId, final String zone, final Machine previous,
      final Machine next, final Signals signals, final long nowMs) {
    if (previous != null && previous.state() == next.state()) {
      return null;
    }
    return new Transition(Transition.INSTANCE, instanceId, zone,
        previous == null ? UNKNOWN : previous.state().name(), next.state().name(), next.reason(),
        signals.byField(), nowMs);
  }
}
