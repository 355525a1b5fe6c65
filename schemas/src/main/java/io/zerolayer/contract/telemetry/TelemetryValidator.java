package io.zerolayer.contract.telemetry;

import io.zerolayer.contract.avro.InstanceTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Values that pass the schema but cannot be true: fractions outside [0, 1], negative counts or
 * latencies, a sample time far from now, an empty instance id or zone.
 */
public final class TelemetryValidator {

  private final Duration maxClockSkew;

  /**
   * @param maxClockSkew how far a sample time may be from the validator's clock, either way
   */
  public TelemetryValidator(final Duration maxClockSkew) {
    this.maxClockSkew = maxClockSkew;
  }

  /** What is wrong with the sample; empty when it is valid. */
  public List<String> problems(final InstanceTelemetry sample, final long nowMs) {
    final List<String> problems = new ArrayList<>();
    if (sample.getInstanceId() == null || sample.getInstanceId().isBlank()) {
      problems.add("instanceId is empty");
    }
    if (sample.getZone() == null || sample.getZone().isBlank()) {
      problems.add("zone is empty");
    }
    fraction(problems, "gpuUtilization", sample.getGpuUtilization());
    fraction(problems, "vramFragmentation", sample.getVramFragmentation());
    fraction(problems, "kvCacheHitRate", sample.getKvCacheHitRate());
    fraction(problems, "kvWarmupLevel", sample.getKvWarmupLevel());
    fraction(problems, "tcpRetransmitRate", sample.getTcpRetransmitRate());
    notNegative(problems, "vramUsedBytes", sample.getVramUsedBytes());
    notNegative(problems, "ncclRingLatencyMs", sample.getNcclRingLatencyMs());
    notNegative(problems, "queueLength", sample.getQueueLength());
    notNegative(problems, "runningRequests", sample.getRunningRequests());
    notNegative(problems, "batchSlots", sample.getBatchSlots());
    notNegative(problems, "decodeTokensPerS", sample.getDecodeTokensPerS());
    notNegative(problems, "tokenIntervalStddevMs", sample.getTokenIntervalStddevMs());
    notNegative(problems, "allocationErrors", sample.getAllocationErrors());
    if (sample.getRunningTokensToLimit().stream().anyMatch(left -> left == null || left < 0)) {
      problems.add("runningTokensToLimit holds a negative count: " + sample.getRunningTokensToLimit());
    }
    final long skew = sample.getSampleTimeMs() - nowMs;
    if (Math.abs(skew) > maxClockSkew.toMillis()) {
      problems.add("sampleTimeMs is " + skew + " ms from now, beyond the allowed " + maxClockSkew.toMillis()
          + " ms: check the instance's clock");
    }
    return problems;
  }

  private static void fraction(final List<String> problems, final String field, final double value) {
    if (!(value >= 0.0 && value <= 1.0)) {
      problems.add(field + " is " + value + ", outside [0, 1]");
    }
  }

  private static void notNegative(final List<String> problems, final String field, final double value) {
    if (!(value >= 0.0)) {
      problems.add(field + " is " + value + ", negative");
    }
  }
}
