package io.zerolayer.heatmap.internal;

import io.zerolayer.contract.avro.InstanceTelemetry;
import java.util.function.ToDoubleFunction;

/** The twelve telemetry metrics, in the order the heatmap's stores keep them. */
public enum Metric {
  GPU_UTILIZATION("gpuUtilization", InstanceTelemetry::getGpuUtilization),
  VRAM_USED_BYTES("vramUsedBytes", InstanceTelemetry::getVramUsedBytes),
  VRAM_FRAGMENTATION("vramFragmentation", InstanceTelemetry::getVramFragmentation),
  KV_CACHE_HIT_RATE("kvCacheHitRate", InstanceTelemetry::getKvCacheHitRate),
  KV_WARMUP_LEVEL("kvWarmupLevel", InstanceTelemetry::getKvWarmupLevel),
  NCCL_RING_LATENCY_MS("ncclRingLatencyMs", InstanceTelemetry::getNcclRingLatencyMs),
  TCP_RETRANSMIT_RATE("tcpRetransmitRate", InstanceTelemetry::getTcpRetransmitRate),
  QUEUE_LENGTH("queueLength", InstanceTelemetry::getQueueLength),
  RUNNING_REQUESTS("runningRequests", InstanceTelemetry::getRunningRequests),
  DECODE_TOKENS_PER_S("decodeTokensPerS", InstanceTelemetry::getDecodeTokensPerS),
  TOKEN_INTERVAL_STDDEV_MS("tokenIntervalStddevMs", InstanceTelemetry::getTokenIntervalStddevMs),
  ALLOCATION_ERRORS("allocationErrors", InstanceTelemetry::getAllocationErrors);

  /** How many metrics there are; the width of every per-metric array in the stores. */
  public static final int COUNT = values().length;

  private final String field;
  private final ToDoubleFunction<InstanceTelemetry> reader;

  Metric(final String field, final ToDoubleFunction<InstanceTelemetry> reader) {
    this.field = field;
    this.reader = reader;
  }

  /** The telemetry field's name, as queries and CloudEvents show it. */
  public String field() {
    return field;
  }

  /** This metric's value in a sample. */
  public double of(final InstanceTelemetry sample) {
    return reader.applyAsDouble(sample);
  }

  /** Every metric of a sample, in enum order. */
  public static double[] all(final InstanceTelemetry sample) {
    final double[] values = new double[COUNT];
    for (final Metric metric : values()) {
      values[metric.ordinal()] = metric.of(sample);
    }
    return values;
  }
}
