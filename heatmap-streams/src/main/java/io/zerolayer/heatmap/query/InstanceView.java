package io.zerolayer.heatmap.query;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceStatus;
import io.zerolayer.contract.avro.LatencyModel;
import io.zerolayer.heatmap.internal.Metric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One instance as the heatmap sees it.
 *
 * @param instanceId the instance
 * @param zone its zone
 * @param state its state
 * @param weight its weight in [0, 1], zone penalty included
 * @param reason why
 * @param stateSinceMs when it entered the state (null when only the published row is known)
 * @param lastTelemetryMs sample time of its latest telemetry
 * @param zonePenalised its zone is penalised
 * @param networkDegraded smoothed TCP retransmit rate above 8 %
 * @param cutOverInFlight sequences in flight on it are to be cut over
 * @param signals the values the rules read, and the batch the routers' queue waits count on
 * @param runningTokensToLimit for each running request, what its output limit still allows (empty
 *     where the instance does not say)
 * @param smoothed time-decayed means per metric (empty when only the published row is known)
 * @param latencyModel the fitted latency model
 */
public record InstanceView(String instanceId, String zone, String state, double weight, String reason,
    Long stateSinceMs, long lastTelemetryMs, boolean zonePenalised, boolean networkDegraded, boolean cutOverInFlight,
    Map<String, Double> signals, List<Integer> runningTokensToLimit, Map<String, Double> smoothed,
    Map<String, Double> latencyModel) {

  /** The view of a published row. */
  public static InstanceView of(final InstanceScore row) {
    return of(row, null, Map.of());
  }

  /** The view of an instance's stored status, with its state machine and smoothed metrics. */
  public static InstanceView of(final InstanceStatus status) {
    final Map<String, Double> smoothed = new LinkedHashMap<>();
    for (final Metric metric : Metric.values()) {
      smoothed.put(metric.field(), status.getEwma().get(metric.ordinal()));
    }
    return of(status.getRow(), status.getStateSinceMs(), smoothed);
  }

  private static InstanceView of(final InstanceScore row, final Long since, final Map<String, Double> smoothed) {
    final Map<String, Double> signals = new LinkedHashMap<>();
    signals.put("vramFragmentation", row.getVramFragmentation());
    signals.put("gpuUtilization", row.getGpuUtilization());
    signals.put("tokenIntervalStddevMs", row.getTokenIntervalStddevMs());
    signals.put("tcpRetransmitRate", row.getTcpRetransmitRate());
    signals.put("kvWarmupLevel", row.getWarmupLevel());
    signals.put("queueLength", (double) row.getQueueLength());
    signals.put("runningRequests", (double) row.getRunningRequests());
    signals.put("batchSlots", (double) row.getBatchSlots());
    signals.put("decodeTokensPerS", row.getDecodeTokensPerS());
    final LatencyModel model = row.getLatencyModel();
    final Map<String, Double> fit = new LinkedHashMap<>();
    fit.put("latencyInterceptMs", model.getLatencyInterceptMs());
    fit.put("latencyPerInputTokenMs", model.getLatencyPerInputTokenMs());
    fit.put("latencyPerOutputTokenMs", model.getLatencyPerOutputTokenMs());
    fit.put("ttftInterceptMs", model.getTtftInterceptMs());
    fit.put("ttftPerInputTokenMs", model.getTtftPerInputTokenMs());
    fit.put("ttftPerOutputTokenMs", model.getTtftPerOutputTokenMs());
    fit.put("samples", (double) model.getSamples());
    fit.put("decodeStepBaseMs", model.getDecodeStepBaseMs());
    fit.put("decodeStepPerSequenceMs", model.getDecodeStepPerSequenceMs());
    return new InstanceView(row.getInstanceId(), row.getZone(), row.getState().name(), row.getWeight(),
        row.getReason(), since, row.getLastTelemetryMs(), row.getZonePenalised(), row.getNetworkDegraded(),
        row.getCutOverInFlight(), signals, List.copyOf(row.getRunningTokensToLimit()), smoothed, fit);
  }
}
