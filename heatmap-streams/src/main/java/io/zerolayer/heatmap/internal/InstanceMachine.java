package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceState;
import java.util.ArrayList;
import java.util.List;

/**
 * The instance state machine of DESIGN section 5: fragmentation bands with the 3-second
 * observation above 92 %, TGSV bands with the cut-over trigger, saturation, network degradation
 * and staleness. Plain Java; the heatmap processor feeds it samples and wall-clock ticks.
 */
public final class InstanceMachine {

  /** The fragmentation factor of an instance that came back from above 92 %. */
  static final double RECOVERING_CAP = 0.3;
  static final double NETWORK_DEGRADED = 0.08;
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
    final double fragmentation = signals.fragmentation();
    final boolean critical = fragmentation > ScoreRules.FRAGMENTATION_CRITICAL;
    final long criticalSince = critical ? (last.observing() ? last.criticalSinceMs() : nowMs) : -1;
    final boolean ejected = critical && nowMs - criticalSince >= timings.observationMs();
    final long calmSince = calmSince(last, critical, fragmentation, nowMs);
    final boolean recovering = !critical && calmSince != Long.MIN_VALUE
        && (calmSince < 0 || nowMs - calmSince < timings.recoveryHoldMs());
    final List<String> reasons = new ArrayList<>();
    final double weight = critical ? 0.0 : weight(signals, recovering, reasons);
    if (critical) {
      reasons.add(String.format("fragmentation %.1f%% > 92%% since %d ms%s", 100 * fragmentation,
          nowMs - criticalSince, ejected ? ": ejected" : ": observing"));
    }
    final boolean saturated = ScoreRules.saturated(signals.gpuUtilization());
    final boolean networkDegraded = signals.retransmitRate() > NETWORK_DEGRADED;
    if (networkDegraded) {
      reasons.add(String.format("TCP retransmit %.1f%% > 8%%: network-degraded", 100 * signals.retransmitRate()));
    }
    final InstanceState state = critical ? (ejected ? InstanceState.EJECTED : InstanceState.UNAVAILABLE)
        : recovering ? InstanceState.RECOVERING
        : saturated || weight == 0.0 ? InstanceState.UNAVAILABLE
        : weight < 1.0 || networkDegraded ? InstanceState.DEGRADED : InstanceState.HEALTHY;
    final boolean inPreClearBand = fragmentation >= ScoreRules.FRAGMENTATION_PRE_CLEAR && !critical;
    final String reason = reasons.isEmpty() ? "healthy" : String.join("; ", reasons);
    final Machine next = new Machine(state, state == last.state() && previous != null ? last.sinceMs() : nowMs,
        weight, reason, criticalSince, recovering ? calmSince : -1,
        inPreClearBand || (critical && last.preClearSent()), signals.tgsvMs() > ScoreRules.TGSV_CUTOVER_MS,
        networkDegraded);
    return new Assessment(next, inPreClearBand && !last.preClearSent(),
        transition(instanceId, zone, previous, next, signals, nowMs));
  }

  /**
   * A wall-clock tick: staleness, and the end of a fragmentation observation when no sample came.
   *
   * @param lastSeenMs when the instance's latest sample was processed
   * @param signals the rules' inputs as of its latest sample
   */
  public Assessment onTick(final String instanceId, final String zone, final Machine machine,
      final long lastSeenMs, final Signals signals, final long nowMs) {
    final long silentMs = nowMs - lastSeenMs;
    final InstanceState state = machine.state();
    if (silentMs >= timings.ejectAfterMs() && state != InstanceState.EJECTED) {
      return moved(instanceId, zone, machine, InstanceState.EJECTED, -1,
          "no telemetry for " + silentMs + " ms: ejected", signals, nowMs);
    }
    if (silentMs >= timings.suspectAfterMs() && silentMs < timings.ejectAfterMs()
        && state != InstanceState.SUSPECT && state != InstanceState.EJECTED) {
      return moved(instanceId, zone, machine, InstanceState.SUSPECT, machine.criticalSinceMs(),
          "no telemetry for " + silentMs + " ms: suspect", signals, nowMs);
    }
    if (machine.observing() && state == InstanceState.UNAVAILABLE
        && nowMs - machine.criticalSinceMs() >= timings.observationMs()) {
      return moved(instanceId, zone, machine, InstanceState.EJECTED, machine.criticalSinceMs(),
          String.format("fragmentation %.1f%% > 92%% for %d ms: ejected", 100 * signals.fragmentation(),
              nowMs - machine.criticalSinceMs()), signals, nowMs);
    }
    return new Assessment(machine, false, null);
  }

  /** -1: not calm yet; a time: calm since then; MIN_VALUE: not recovering at all. */
  private static long calmSince(final Machine last, final boolean critical, final double fragmentation,
      final long nowMs) {
    final boolean cameBack = last.observing() || last.state() == InstanceState.EJECTED
        || last.state() == InstanceState.RECOVERING;
    if (critical || !cameBack) {
      return Long.MIN_VALUE;
    }
    if (fragmentation >= ScoreRules.FRAGMENTATION_PRE_CLEAR) {
      return -1;
    }
    return last.state() == InstanceState.RECOVERING && last.calmSinceMs() >= 0 ? last.calmSinceMs() : nowMs;
  }

  private static double weight(final Signals signals, final boolean recovering, final List<String> reasons) {
    double fragmentation = ScoreRules.fragmentationFactor(signals.fragmentation());
    if (recovering) {
      fragmentation = Math.min(fragmentation, RECOVERING_CAP);
      reasons.add(String.format("recovering from fragmentation above 92%%, now %.1f%% -> x%.2f",
          100 * signals.fragmentation(), fragmentation));
    } else if (fragmentation < 1.0) {
      reasons.add(String.format("fragmentation %.1f%% -> x%.2f", 100 * signals.fragmentation(), fragmentation));
    }
    final double tgsv = ScoreRules.tgsvFactor(signals.tgsvMs());
    if (tgsv < 1.0) {
      reasons.add(String.format("TGSV %.1f ms -> x%.2f%s", signals.tgsvMs(), tgsv,
          signals.tgsvMs() > ScoreRules.TGSV_CUTOVER_MS ? ", sequences in flight cut over" : ""));
    }
    if (ScoreRules.saturated(signals.gpuUtilization())) {
      reasons.add(String.format("GPU %.1f%% busy > 98%%: unavailable", 100 * signals.gpuUtilization()));
      return 0.0;
    }
    return Math.max(0.0, Math.min(1.0, fragmentation * tgsv));
  }

  private static Assessment moved(final String instanceId, final String zone, final Machine machine,
      final InstanceState state, final long criticalSince, final String reason, final Signals signals,
      final long nowMs) {
    final Machine next = new Machine(state, nowMs, 0.0, reason, criticalSince, -1, machine.preClearSent(),
        machine.cutOver(), machine.networkDegraded());
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
