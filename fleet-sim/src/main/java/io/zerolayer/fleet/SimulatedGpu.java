package io.zerolayer.fleet;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.avro.KvCacheEvent;
import io.zerolayer.worker.InferenceEngine;
import io.zerolayer.worker.TokenSink;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * One simulated continuous-batching server: at most {@code maxBatch} sequences decode at once,
 * the rest queue; prefill grows with the prompt, each decode step with the batch; a cold
 * instance serves nothing until it has loaded its weights. Its telemetry is derived from that
 * state. Faults are injected through its methods ({@link #oom()}, {@link #loseNetwork(double)},
 * {@link #coldRestart()}, {@link #stall()}, {@link #crash()}) and show in both.
 */
public final class SimulatedGpu implements InferenceEngine, AutoCloseable {

  private final String instanceId;
  private final String zone;
  private final SimClock clock;
  private final GpuLoad load = new GpuLoad();
  private final GpuHealth health;
  private final TokenCadence cadence = new TokenCadence();
  private final PrefixCache prefixCache;
  private final ContinuousBatcher batcher;
  private final GpuTelemetry telemetry;
  private final int maxBatch;

  /**
   * A GPU on the system clock.
   *
   * @param warm whether the instance starts warm; a cold one loads its weights when the first
   *     request or a {@code PRE_WARM} comes
   */
  public SimulatedGpu(final String instanceId, final String zone, final String model, final GpuProfile profile,
      final boolean warm) {
    this(instanceId, zone, model, profile, warm, SimClock.system());
  }

  /**
   * @param warm whether the instance starts warm; a cold one loads its weights when first asked to
   * @param clock the time it lives in; its random delays are seeded from {@code instanceId}
   */
  public SimulatedGpu(final String instanceId, final String zone, final String model, final GpuProfile profile,
      final boolean warm, final SimClock clock) {
    this.instanceId = requireNonNull(instanceId, "instanceId");
    this.zone = requireNonNull(zone, "zone");
    this.clock = requireNonNull(clock, "clock");
    this.health = new GpuHealth(profile.warmUp().toMillis(), warm, clock.millis());
    this.maxBatch = profile.maxBatch();
    final GpuPacing pacing = new GpuPacing(profile, load, health, new Random(instanceId.hashCode()));
    this.prefixCache = new PrefixCache(instanceId, profile.prefixCacheBlocks());
    this.batcher = new ContinuousBatcher(instanceId, profile, clock, load, health, cadence, pacing, prefixCache);
    this.telemetry = new GpuTelemetry(instanceId, zone, model, profile, load, health, cadence, clock,
        new Random(~instanceId.hashCode()));
  }

  /** The instance this GPU serves. */
  public String instanceId() {
    return instanceId;
  }

  /** The zone the instance runs in. */
  public String zone() {
    return zone;
  }

  /**
   * @throws GenerationFailedException when the KV cache is out of memory as the sequence is
   *     admitted, or the instance restarts while the sequence is in flight
   */
  @Override
  public String generate(final DispatchTask task, final TokenSink sink)
      throws InterruptedException, GenerationFailedException {
    return batcher.generate(task, sink);
  }

  /**
   * Fault: the KV cache runs out of memory. Fragmentation climbs to 99 % within a second and
   * stays there, every telemetry sample reports allocation errors, and each sequence admitted
   * into the batch from now on fails while those already running go on; until
   * {@link #recover()} or {@link #coldRestart()}.
   */
  public void oom() {
    health.outOfMemory(clock.millis());
  }

  /** Ends an {@link #oom()} and a {@link #stall()}; a {@link #crash()} only ends with a cold restart. */
  public void recover() {
    health.recover();
  }

  /**
   * Fault: the instance's network loses {@code packetLoss} of its packets until
   * {@link #restoreNetwork()}. TCP retransmits rise to about that rate, the NCCL ring slows, and
   * a chunk of tokens that is lost waits a retransmission timeout (200 ms, doubled for each further
   * loss of it), with the sequence's later tokens behind it: at 15 %, 15 % of the chunks come
   * 200 ms late or more.
   */
  public void loseNetwork(final double packetLoss) {
    if (!(packetLoss >= 0.0 && packetLoss <= 1.0)) {
      throw new IllegalArgumentException("packetLoss is a fraction in [0, 1], was " + packetLoss);
    }
    health.packetLoss(packetLoss);
  }

  /** Ends a {@link #loseNetwork(double)}. */
  public void restoreNetwork() {
    health.packetLoss(0.0);
  }

  /**
   * Fault: the instance restarts. Every sequence in flight or queued fails, the out-of-memory,
   * stall and crash faults end, and the instance is cold: it loads its weights when the first
   * request or a {@code PRE_WARM} comes, and serves nothing until they are loaded (the profile's
   * warm-up time), while its warm-up level climbs from 0 to 1.
   */
  public void coldRestart() {
    health.restart();
    prefixCache.clear(clock.millis());
    cadence.reset();
    load.takeAllocationErrors();
  }

  /** Fault: every sequence on this instance stops making progress until {@link #resume()} or cancel. */
  public void stall() {
    health.stalled(true);
  }

  /** Ends a {@link #stall()}. */
  public void resume() {
    health.stalled(false);
  }

  /**
   * Fault: the instance dies without a word, as under {@code kill -9}: no telemetry, no tokens,
   * no completions, cancels unheard. Only {@link #coldRestart()} brings it back.
   */
  public void crash() {
    health.crash();
  }

  @Override
  public void onCommand(final InstanceCommand command) {
    final long now = clock.millis();
    if (command.getType() == CommandType.PRE_WARM && !health.crashed()) {
      health.startWarming(now);
    }
  }

  /** Loading its weights: after a cold restart, until the load that a request or a {@code PRE_WARM} started ends. */
  @Override
  public boolean loading() {
    return !health.crashed() && !health.warm(clock.millis());
  }

  /**
   * Whether a request sent now would start at once and stream unhindered: alive, warm, neither
   * out of memory, stalled nor losing packets, nothing queued and a batch slot free. Read by a
   * benchmark judging whether a router had somewhere healthy to send work; changes nothing.
   */
  public boolean hasRoom() {
    return !health.crashed() && health.warm(clock.millis()) && !health.outOfMemory() && !health.stalled()
        && health.packetLoss() == 0.0 && load.queued() == 0 && load.running() < maxBatch;
  }

  /**
   * The instance's telemetry sample at {@code nowMs}; empty once it has crashed. Each sample
   * takes the allocation errors counted since the previous one.
   */
  public Optional<InstanceTelemetry> sample(final long nowMs) {
    return health.crashed() ? Optional.empty() : Optional.of(telemetry.sample(nowMs));
  }

  /**
   * What its prefix cache stored and evicted since the previous call, oldest first; nothing once
   * it has crashed (a dead engine reports nothing; its restart reports the cache cleared).
   */
  public List<KvCacheEvent> kvEvents() {
    return health.crashed() ? List.of() : prefixCache.drainEvents();
  }

  /** Fails the sequences a crash holds, so that the worker's threads can end. */
  @Override
  public void close() {
    batcher.close();
  }
}
