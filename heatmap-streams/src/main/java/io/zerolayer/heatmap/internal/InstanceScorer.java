package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.avro.LatencyModel;
import java.util.ArrayList;
import java.util.List;

/** Turns an instance's latest telemetry into its heatmap row. */
public final class InstanceScorer {

  private final LatencyModel defaultModel;

  public InstanceScorer(final LatencyModel defaultModel) {
    this.defaultModel = requireNonNull(defaultModel, "defaultModel");
  }

  /**
   * @param sample the latest telemetry
   * @param previous the instance's row so far, or null; its latency model is kept
   * @param nowMs wall-clock time of the update
   */
  public InstanceScore score(final InstanceTelemetry sample, final InstanceScore previous, final long nowMs) {
    final List<String> reasons = new ArrayList<>();
    final double fragmentation = ScoreRules.fragmentationFactor(sample.getVramFragmentation());
    if (fragmentation < 1.0) {
      reasons.add(String.format("fragmentation %.1f%% -> x%.2f", 100 * sample.getVramFragmentation(), fragmentation));
    }
    final double tgsv = ScoreRules.tgsvFactor(sample.getTokenIntervalStddevMs());
    if (tgsv < 1.0) {
      reasons.add(String.format("TGSV %.1f ms -> x%.2f", sample.getTokenIntervalStddevMs(), tgsv));
    }
    final boolean saturated = ScoreRules.saturated(sample.getGpuUtilization());
    if (saturated) {
      reasons.add(String.format("GPU %.1f%% busy -> unavailable", 100 * sample.getGpuUtilization()));
    }
    final double weight = saturated ? 0.0 : clamp(fragmentation * tgsv);
    return InstanceScore.newBuilder()
        .setInstanceId(sample.getInstanceId())
        .setZone(sample.getZone())
        .setModel(sample.getModel())
        .setState(state(weight, saturated))
        .setWeight(weight)
        .setReason(reasons.isEmpty() ? "healthy" : String.join("; ", reasons))
        .setWarmupLevel(sample.getKvWarmupLevel())
        .setGpuUtilization(sample.getGpuUtilization())
        .setVramFragmentation(sample.getVramFragmentation())
        .setTokenIntervalStddevMs(sample.getTokenIntervalStddevMs())
        .setTcpRetransmitRate(sample.getTcpRetransmitRate())
        .setQueueLength(sample.getQueueLength())
        .setRunningRequests(sample.getRunningRequests())
        .setDecodeTokensPerS(sample.getDecodeTokensPerS())
        .setZonePenalised(false)
        .setLatencyModel(previous == null ? defaultModel : previous.getLatencyModel())
        .setLastTelemetryMs(sample.getSampleTimeMs())
        .setUpdatedAtMs(nowMs)
        .build();
  }

  private static InstanceState state(final double weight, final boolean saturated) {
    if (saturated) {
      return InstanceState.UNAVAILABLE;
    }
    return weight >= 1.0 ? InstanceState.HEALTHY : InstanceState.DEGRADED;
  }

  private static double clamp(final double value) {
    return Math.max(0.0, Math.min(1.0, value));
  }
}
