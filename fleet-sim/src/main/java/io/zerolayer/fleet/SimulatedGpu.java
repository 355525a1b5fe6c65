package io.zerolayer.fleet;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.tokenbuffer.worker.InferenceEngine;
import io.zerolayer.tokenbuffer.worker.TokenSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One simulated continuous-batching server: at most {@code maxBatch} sequences decode at once,
 * the rest queue; prefill grows with the prompt, each decode step with the batch; a cold
 * instance prefills slower until it has warmed up. Its telemetry is derived from that state.
 */
public final class SimulatedGpu implements InferenceEngine {

  private static final double COLD_PREFILL_PENALTY_MS = 2_000;
  private static final long VRAM_BASE_BYTES = 16L << 30;
  private static final long VRAM_PER_SEQUENCE_BYTES = 512L << 20;
  private static final double STALL_POLL_MS = 10;

  private final String instanceId;
  private final String zone;
  private final String model;
  private final GpuProfile profile;
  private final Semaphore batch;
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicInteger running = new AtomicInteger();
  private final TokenCadence cadence = new TokenCadence();
  private volatile long warmingSinceMs;
  private volatile boolean stalled;

  /**
   * @param warm whether the instance starts warm; a cold one starts loading when it starts
   */
  public SimulatedGpu(final String instanceId, final String zone, final String model, final GpuProfile profile,
      final boolean warm) {
    this.instanceId = requireNonNull(instanceId, "instanceId");
    this.zone = requireNonNull(zone, "zone");
    this.model = requireNonNull(model, "model");
    this.profile = requireNonNull(profile, "profile");
    this.batch = new Semaphore(profile.maxBatch(), true);
    this.warmingSinceMs = warm ? System.currentTimeMillis() - profile.warmUp().toMillis() : System.currentTimeMillis();
  }

  @Override
  public String generate(final DispatchTask task, final TokenSink sink) throws InterruptedException {
    queued.incrementAndGet();
    try {
      batch.acquire();
    } finally {
      queued.decrementAndGet();
    }
    running.incrementAndGet();
    sink.started();
    try {
      sleep(prefillMs(task.getInputTokens()));
      final int length = TextModel.length(task.getPrompt(), task.getSeed(), task.getMaxOutputTokens());
      final List<String> pending = new ArrayList<>(profile.tokensPerChunk());
      long previous = System.nanoTime();
      for (int i = task.getResumeFromIndex(); i < length && !sink.cancelled(); i++) {
        sleep(profile.decodeBaseMs() + profile.decodePerSequenceMs() * running.get());
        while (stalled && !sink.cancelled()) {
          sleep(STALL_POLL_MS);
        }
        if (sink.cancelled()) {
          break;
        }
        pending.add(TextModel.token(task.getPrompt(), task.getSeed(), i));
        final long now = System.nanoTime();
        cadence.interval(now - previous);
        previous = now;
        if (pending.size() == profile.tokensPerChunk()) {
          sink.emit(List.copyOf(pending));
          pending.clear();
        }
      }
      sink.emit(List.copyOf(pending));
      return length < task.getMaxOutputTokens() ? "stop" : "length";
    } finally {
      running.decrementAndGet();
      batch.release();
    }
  }

  /** Fault: every sequence on this instance stops making progress until {@link #resume()} or cancel. */
  public void stall() {
    stalled = true;
  }

  /** Ends a {@link #stall()}. */
  public void resume() {
    stalled = false;
  }

  @Override
  public void onCommand(final InstanceCommand command) {
    if (command.getType() == CommandType.PRE_WARM && warmupLevel(System.currentTimeMillis()) == 0.0) {
      warmingSinceMs = System.currentTimeMillis();
    }
  }

  /** The instance's telemetry sample now. */
  public InstanceTelemetry sample(final long nowMs) {
    final int active = running.get();
    final double load = (double) active / profile.maxBatch();
    return InstanceTelemetry.newBuilder()
        .setInstanceId(instanceId)
        .setZone(zone)
        .setModel(model)
        .setSampleTimeMs(nowMs)
        .setGpuUtilization(Math.min(0.97, 0.05 + 0.9 * load))
        .setVramUsedBytes(VRAM_BASE_BYTES + VRAM_PER_SEQUENCE_BYTES * active)
        .setVramFragmentation(0.05 + 0.3 * load)
        .setKvCacheHitRate(0.3)
        .setKvWarmupLevel(warmupLevel(nowMs))
        .setNcclRingLatencyMs(0.2)
        .setTcpRetransmitRate(0.0)
        .setQueueLength(queued.get())
        .setRunningRequests(active)
        .setDecodeTokensPerS(cadence.tokensPerSecond())
        .setTokenIntervalStddevMs(cadence.intervalStddevMs())
        .setAllocationErrors(0)
        .build();
  }

  private double prefillMs(final int inputTokens) {
    final double cold = 1.0 - warmupLevel(System.currentTimeMillis());
    return profile.prefillBaseMs() + profile.prefillPerInputTokenMs() * inputTokens + cold * COLD_PREFILL_PENALTY_MS;
  }

  double warmupLevel(final long nowMs) {
    final double progress = (double) (nowMs - warmingSinceMs) / profile.warmUp().toMillis();
    return Math.max(0.0, Math.min(1.0, progress));
  }

  private static void sleep(final double millis) throws InterruptedException {
    final long nanos = (long) (millis * 1_000_000);
    Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
  }
}
