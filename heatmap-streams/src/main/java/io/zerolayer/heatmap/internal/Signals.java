package io.zerolayer.heatmap.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the rules read about one instance: level gauges from its latest sample, busy and
 * token-cadence metrics from its current short window, network metrics smoothed.
 *
 * @param fragmentation VRAM (KV-cache) fragmentation of the latest sample, in [0, 1]
 * @param fragmentationMax the highest fragmentation over the short window
 * @param gpuUtilization mean GPU utilisation over the short window, in [0, 1]
 * @param tgsvMs mean token-interval standard deviation over the short window, ms
 * @param retransmitRate time-decayed TCP retransmit rate, in [0, 1]
 * @param retransmitLatest TCP retransmit rate of the latest sample, in [0, 1]
 * @param warmupLevel KV warm-up level of the latest sample, in [0, 1]
 */
public record Signals(double fragmentation, double fragmentationMax, double gpuUtilization, double tgsvMs,
    double retransmitRate, double retransmitLatest, double warmupLevel) {

  /** The values by telemetry field name, for reasons and CloudEvents. */
  public Map<String, Double> byField() {
    final Map<String, Double> fields = new LinkedHashMap<>();
    fields.put(Metric.VRAM_FRAGMENTATION.field(), fragmentation);
    fields.put(Metric.GPU_UTILIZATION.field(), gpuUtilization);
    fields.put(Metric.TOKEN_INTERVAL_STDDEV_MS.field(), tgsvMs);
    fields.put(Metric.TCP_RETRANSMIT_RATE.field(), retransmitRate);
    fields.put(Metric.KV_WARMUP_LEVEL.field(), warmupLevel);
    return fields;
  }
}
