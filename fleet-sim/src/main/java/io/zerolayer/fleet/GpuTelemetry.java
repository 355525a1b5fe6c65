package io.zerolayer.fleet;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceTelemetry;
import java.util.Random;

/**
 * A simulated GPU's telemetry, derived from its load and health the way a real server's follows
 * them: VRAM and KV-cache use grow with the tokens the batch holds, fragmentation with the batch
 * and the KV cache (about 50 % at a full batch with a full cache), and runs away to 99 % within
 * a second of an out-of-memory fault; packet loss shows as TCP retransmits and a slower NCCL
 * ring; the token cadence is the one the sequences really had.
 */
final class GpuTelemetry {

  /** KV-cache room per batch slot, in tokens. */
  static final int KV_TOKENS_PER_BATCH_SLOT = 2048;
  private static final long VRAM_WEIGHTS_BYTES = 16L << 30;
  private static final long KV_BYTES_PER_TOKEN = 128L << 10;
  private static final double IDLE_FRAGMENTATION = 0.05;
  private static final double FRAGMENTATION_PER_BATCH = 0.20;
  private static final double FRAGMENTATION_PER_KV_USE = 0.25;
  private static final double OOM_FRAGMENTATION = 0.99;
  private static final double OOM_RAMP_MS = 800;
  private static final double WARM_KV_HIT_RATE = 0.3;
  private static final double NORMAL_RETRANSMIT_RATE = 0.001;
  private static final double NCCL_RING_BASE_MS = 0.2;
  private static final double NCCL_RING_MS_PER_LOST_FRACTION = 40;
  private static final double NOISE = 0.1;

  private final String instanceId;
  private final String zone;
  private final String model;
  private final GpuProfile profile;
  private final GpuLoad load;
  private final GpuHealth health;
  private final TokenCadence cadence;
  private final SimClock clock;
  private final Random random;

  GpuTelemetry(final String instanceId, final String zone, final String model, final GpuProfile profile,
      final GpuLoad load, final GpuHealth health, final TokenCadence cadence, final SimClock clock,
      final Random random) {
    this.instanceId = requireNonNull(instanceId, "instanceId");
    this.zone = requireNonNull(zone, "zone");
    this.model = requireNonNull(model, "model");
    this.profile = requireNonNull(profile, "profile");
    this.load = requireNonNull(load, "load");
    this.health = requireNonNull(health, "health");
    this.cadence = requireNonNull(cadence, "cadence");
    this.clock = requireNonNull(clock, "clock");
    this.random = requireNonNull(random, "random");
  }

  /** The sample at {@code nowMs}; it takes the allocation errors counted since the previous one. */
  InstanceTelemetry sample(final long nowMs) {
    final int active = load.running();
    final double batchUse = (double) active / profile.maxBatch();
    final long kvCapacity = (long) profile.maxBatch() * KV_TOKENS_PER_BATCH_SLOT;
    final long kvTokens = Math.min(load.kvTokens(), kvCapacity);
    final double warmup = health.warmupLevel(nowMs);
    final double loss = health.packetLoss();
    final long cadenceNow = clock.nanoTime();
    return InstanceTelemetry.newBuilder()
        .setInstanceId(instanceId)
        .setZone(zone)
        .setModel(model)
        .setInstanceClass(profile.instanceClass())
        .setSampleTimeMs(nowMs)
        .setGpuUtilization(Math.min(0.97, 0.05 + 0.9 * batchUse))
        .setVramUsedBytes(VRAM_WEIGHTS_BYTES + KV_BYTES_PER_TOKEN * kvTokens)
        .setVramFragmentation(fragmentation(batchUse, (double) kvTokens / kvCapacity, nowMs))
        .setKvCacheHitRate(WARM_KV_HIT_RATE * warmup)
        .setKvWarmupLevel(warmup)
        .setNcclRingLatencyMs(noisy(NCCL_RING_BASE_MS + NCCL_RING_MS_PER_LOST_FRACTION * loss))
        .setTcpRetransmitRate(Math.min(1.0, noisy(Math.max(NORMAL_RETRANSMIT_RATE, loss))))
        .setQueueLength(load.queued())
        .setRunningRequests(active)
        .setRunningTokensToLimit(load.tokensToLimit())
        .setBatchSlots(profile.maxBatch())
        .setDecodeTokensPerS(cadence.tokensPerSecond(cadenceNow))
        .setTokenIntervalStddevMs(cadence.intervalStddevMs(cadenceNow))
        .setAllocationErrors(allocationErrors())
        .build();
  }

  private double fragmentation(final double batchUse, final double kvUse, final long nowMs) {
    final double normal = IDLE_FRAGMENTATION + FRAGMENTATION_PER_BATCH * batchUse + FRAGMENTATION_PER_KV_USE * kvUse;
    if (!health.outOfMemory()) {
      return normal;
    }
    final double ramp = Math.min(1.0, health.outOfMemoryForMs(nowMs) / OOM_RAMP_MS);
    return normal + (OOM_FRAGMENTATION - normal) * ramp;
  }

  /** Failed admissions, plus the allocator's own failing compaction while memory is exhausted. */
  private int allocationErrors() {
    return load.takeAllocationErrors() + (health.outOfMemory() ? 1 : 0);
  }

  private double noisy(final double value) {
    return value * (1 - NOISE + 2 * NOISE * random.nextDouble());
  }
}
