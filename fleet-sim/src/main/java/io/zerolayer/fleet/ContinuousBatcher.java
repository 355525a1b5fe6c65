package io.zerolayer.fleet;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.prefix.PrefixBlocks;
import io.zerolayer.worker.TokenSink;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs sequences through a simulated GPU's batch: a sequence queues for one of {@code maxBatch}
 * slots, first come first served (on a cold instance, first for the weight load it starts), and
 * leaves the queue within 50 ms when it is cancelled; it is admitted with its prompt's
 * KV entries (or fails when the KV cache is out of memory), prefills what of its prompt the
 * prefix cache does not hold, then decodes token by
 * token and sends its first token at once and then a chunk every {@code tokensPerChunk} tokens, as
 * vLLM does with a stream interval above one. A resumed sequence continues the
 * text from the prefix its task carries.
 * It holds while the instance is stalled or crashed and fails once the instance restarted.
 */
final class ContinuousBatcher {

  private static final long POLL_MS = 10;
  /**
   * How often a queued sequence looks for a cancel or a crash. A freed slot wakes the first in
   * line at once; the others only need to notice that they should leave.
   */
  private static final long QUEUED_POLL_MS = 50;
  /** The finish reason of a sequence cancelled before it entered the batch, as vLLM names an aborted one. */
  private static final String CANCELLED_WHILE_WAITING = "abort";

  private final String instanceId;
  private final GpuProfile profile;
  private final SimClock clock;
  private final BatchSlots batch;
  private final GpuLoad load;
  private final GpuHealth health;
  private final TokenCadence cadence;
  private final GpuPacing pacing;
  private final PrefixCache prefixCache;
  private volatile boolean closed;

  ContinuousBatcher(final String instanceId, final GpuProfile profile, final SimClock clock, final GpuLoad load,
      final GpuHealth health, final TokenCadence cadence, final GpuPacing pacing, final PrefixCache prefixCache) {
    this.instanceId = requireNonNull(instanceId, "instanceId");
    this.profile = requireNonNull(profile, "profile");
    this.clock = requireNonNull(clock, "clock");
    this.batch = new BatchSlots(profile.maxBatch());
    this.load = requireNonNull(load, "load");
    this.health = requireNonNull(health, "health");
    this.cadence = requireNonNull(cadence, "cadence");
    this.pacing = requireNonNull(pacing, "pacing");
    this.prefixCache = requireNonNull(prefixCache, "prefixCache");
  }

  /**
   * @throws GenerationFailedException when the KV cache is out of memory as the sequence is
   *     admitted, or the instance restarts while the sequence is in flight
   */
  String generate(final DispatchTask task, final TokenSink sink)
      throws InterruptedException, GenerationFailedException {
    if (task.getPrefix().size() != task.getResumeFromIndex()) {
      // As a real engine, it cannot continue a sequence whose tokens it has not been given.
      throw new GenerationFailedException("task " + task.getSequenceId() + " (epoch " + task.getEpoch()
          + ") resumes at index " + task.getResumeFromIndex() + " but carries " + task.getPrefix().size()
          + " prefix tokens: it was dispatched by a router older than the prefix field; upgrade the routers");
    }
    final int life = health.life();
    if (!awaitBatchSlot(life, sink)) {
      return CANCELLED_WHILE_WAITING;
    }
    if (health.outOfMemory()) {
      batch.release();
      load.allocationFailed();
      throw new GenerationFailedException("CUDA out of memory on " + instanceId + ": no KV-cache blocks for "
          + task.getSequenceId());
    }
    try (GpuLoad.Allocation kv = load.admit(task.getInputTokens(),
        Math.max(0, task.getMaxOutputTokens() - task.getResumeFromIndex()))) {
      sink.started();
      final int cached = cachedTokens(task);
      sink.cachedPrompt(cached);
      clock.sleep(pacing.prefillMs(task.getInputTokens() - cached));
      return decode(task, sink, life, kv);
    } finally {
      batch.release();
    }
  }

  /** The prompt tokens its prefix cache holds; the prompt's blocks are held from now on. */
  private int cachedTokens(final DispatchTask task) {
    final String prompt = task.getPrompt();
    final int held = prefixCache.prefill(PrefixBlocks.of(prompt), clock.millis());
    return PrefixBlocks.cachedTokens(held, prompt.length(), task.getInputTokens());
  }

  /** @return whether the sequence entered the batch; false when it was cancelled while it waited */
  private boolean awaitBatchSlot(final int life, final TokenSink sink)
      throws InterruptedException, GenerationFailedException {
    load.enqueue();
    final BatchSlots.Place place = batch.join();
    boolean entered = false;
    try {
      health.startWarming(clock.millis());
      while (!health.warm(clock.millis())) {
        awaitAlive(life, sink);
        if (sink.cancelled()) {
          return false;
        }
        clock.sleep(POLL_MS);
      }
      while (!entered) {
        awaitAlive(life, sink);
        if (sink.cancelled()) {
          return false;
        }
        entered = batch.enter(place, QUEUED_POLL_MS);
      }
      return true;
    } finally {
      if (!entered) {
        batch.leave(place);
      }
      load.dequeue();
    }
  }

  private String decode(final DispatchTask task, final TokenSink sink, final int life, final GpuLoad.Allocation kv)
      throws InterruptedException, GenerationFailedException {
    final int length = TextModel.length(task.getPrompt(), task.getSeed(), task.getMaxOutputTokens(),
        task.getIgnoreEos());
    final TextModel.Chain text = TextModel.after(task.getPrompt(), task.getSeed(), task.getPrefix());
    final List<String> pending = new ArrayList<>(profile.tokensPerChunk());
    long previous = clock.nanoTime();
    for (int i = task.getResumeFromIndex(); i < length && !sink.cancelled(); i++) {
      clock.sleep(pacing.decodeStepMs());
      awaitProgress(life, sink);
      if (sink.cancelled()) {
        break;
      }
      pending.add(text.next());
      kv.generated();
      if (i == task.getResumeFromIndex() || pending.size() == profile.tokensPerChunk()) {
        deliver(pending, sink, life);
      }
      final long now = clock.nanoTime();
      cadence.interval(now - previous, now);
      previous = now;
    }
    deliver(pending, sink, life);
    return length < task.getMaxOutputTokens() ? "stop" : "length";
  }

  /** Sends a chunk once the network lets it through; the sequence's next token waits for it. */
  private void deliver(final List<String> pending, final TokenSink sink, final int life)
      throws InterruptedException, GenerationFailedException {
    if (pending.isEmpty()) {
      return;
    }
    clock.sleep(pacing.networkDelayMs());
    awaitProgress(life, sink);
    sink.emit(List.copyOf(pending));
    pending.clear();
  }

  /** Holds the sequence while the instance is stalled, until the sequence is cancelled. */
  private void awaitProgress(final int life, final TokenSink sink)
      throws InterruptedException, GenerationFailedException {
    while (health.life() == life && health.stalled() && !health.crashed() && !sink.cancelled()) {
      clock.sleep(POLL_MS);
    }
    awaitAlive(life, sink);
  }

  /**
   * Holds the sequence while the instance is crashed, deaf to cancels as a dead process is, until
   * a cold restart or shutdown fails it; fails it too when the instance restarted since it began.
   */
  private void awaitAlive(final int life, final TokenSink sink) throws InterruptedException, GenerationFailedException {
    while (health.life() == life && health.crashed() && !closed) {
      // Not even the worker's "still queued" heartbeat may come from a dead instance.
      sink.started();
      clock.sleep(POLL_MS);
    }
    if (health.life() != life) {
      throw new GenerationFailedException(instanceId + " restarted with the sequence in flight");
    }
    if (health.crashed()) {
      throw new GenerationFailedException(instanceId + " shut down after it crashed");
    }
  }

  /** Lets the sequences a crash holds fail, so that their threads can end. */
  void close() {
    closed = true;
  }
}
