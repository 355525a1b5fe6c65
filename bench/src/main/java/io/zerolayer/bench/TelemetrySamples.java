package io.zerolayer.bench;

import io.zerolayer.contract.avro.InstanceTelemetry;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Telemetry of a healthy fleet: instances round-robin over four zones, each sampled every 50 ms,
 * with values that vary from sample to sample but stay well inside every scoring threshold
 * (fragmentation under 70 %, TGSV under 15 ms, GPU under 98 %, warm, no retransmits to speak of).
 */
public final class TelemetrySamples {

  /** How often an instance reports. */
  public static final Duration SAMPLE_INTERVAL = Duration.ofMillis(50);
  static final List<String> ZONES = List.of("zone-a", "zone-b", "zone-c", "zone-d");

  private static final String MODEL = "sim-8b";
  private static final long GIB = 1L << 30;

  private final String idPrefix;
  private final int instances;
  private final SplittableRandom random;

  /**
   * @param idPrefix instance ids are this prefix and the instance's index
   * @param seed the same seed gives the same values
   */
  public TelemetrySamples(final String idPrefix, final int instances, final long seed) {
    if (instances < 1) {
      throw new IllegalArgumentException("instances must be >= 1, got " + instances);
    }
    this.idPrefix = idPrefix;
    this.instances = instances;
    this.random = new SplittableRandom(seed);
  }

  int instances() {
    return instances;
  }

  public String instanceId(final int index) {
    return idPrefix + index;
  }

  static String zone(final int index) {
    return ZONES.get(index % ZONES.size());
  }

  /** One sample of instance {@code index}, taken at {@code sampleTimeMs}. */
  public InstanceTelemetry sample(final int index, final long sampleTimeMs) {
    final int running = 4 + random.nextInt(9);
    return InstanceTelemetry.newBuilder()
        .setInstanceId(instanceId(index))
        .setZone(zone(index))
        .setModel(MODEL)
        .setSampleTimeMs(sampleTimeMs)
        .setGpuUtilization(0.40 + 0.04 * running + random.nextDouble(0.0, 0.05))
        .setVramUsedBytes(16 * GIB + running * (GIB / 2) + random.nextLong(GIB / 4))
        .setVramFragmentation(random.nextDouble(0.05, 0.40))
        .setKvCacheHitRate(random.nextDouble(0.30, 0.70))
        .setKvWarmupLevel(1.0)
        .setNcclRingLatencyMs(random.nextDouble(0.10, 0.40))
        .setTcpRetransmitRate(random.nextDouble(0.0, 0.01))
        .setQueueLength(random.nextInt(4))
        .setRunningRequests(running)
        .setDecodeTokensPerS(random.nextDouble(35.0, 60.0))
        .setTokenIntervalStddevMs(random.nextDouble(1.0, 8.0))
        .setAllocationErrors(0)
        .build();
  }

  /**
   * Where record {@code n} of a backlog of {@code records} samples belongs: the backlog is in
   * time order, every instance in turn, and its last round of samples is at {@code endMs}.
   */
  BacklogSlot slot(final long n, final long records, final long endMs) {
    final long rounds = rounds(records);
    final long round = n / instances;
    return new BacklogSlot((int) (n % instances), endMs - (rounds - 1 - round) * SAMPLE_INTERVAL.toMillis());
  }

  /** How far back the first sample of a backlog of {@code records} lies before the last. */
  Duration backlogSpan(final long records) {
    return SAMPLE_INTERVAL.multipliedBy(Math.max(0, rounds(records) - 1));
  }

  private long rounds(final long records) {
    return (records + instances - 1) / instances;
  }

  /** The instance and sample time of one backlog record. */
  record BacklogSlot(int instance, long sampleTimeMs) {
  }
}
