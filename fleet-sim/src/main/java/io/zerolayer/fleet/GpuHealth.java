package io.zerolayer.fleet;

import io.zerolayer.contract.score.ScoreRows;

/**
 * What has happened to one simulated GPU: how far it has warmed up, since when its KV cache is
 * out of memory, how much of its traffic the network loses, whether it is stalled or crashed,
 * and which life (process start) it is in. Times are epoch milliseconds of the GPU's clock.
 * Writers are serialised; readers see each field's latest value.
 */
final class GpuHealth {

  private static final long NEVER = Long.MIN_VALUE;

  private final long warmUpMs;
  /** When the weight load began; {@link #NEVER} while the GPU is cold and not loading. */
  private volatile long warmingSinceMs;
  private volatile long outOfMemorySinceMs = NEVER;
  private volatile double packetLoss;
  private volatile boolean stalled;
  private volatile boolean crashed;
  private volatile int life;

  /**
   * @param warmUpMs time the weight load takes, from cold to warm
   * @param warm whether the GPU is warm at {@code nowMs}; a cold one loads when first asked to
   */
  GpuHealth(final long warmUpMs, final boolean warm, final long nowMs) {
    if (warmUpMs <= 0) {
      throw new IllegalArgumentException("warmUpMs must be positive, was " + warmUpMs);
    }
    this.warmUpMs = warmUpMs;
    // A warm one is past its KV cache's warm-up too.
    this.warmingSinceMs = warm ? nowMs - (long) Math.ceil(warmUpMs / ScoreRows.WARM_LEVEL) : NEVER;
  }

  /**
   * The warm-up level as the heatmap reads it (DESIGN section 5): 0 = cold; it reaches
   * {@link ScoreRows#WARM_LEVEL} as the weight load completes and the GPU starts serving, and 1
   * as the KV cache fills, rising at the same pace.
   */
  double warmupLevel(final long nowMs) {
    final long since = warmingSinceMs;
    if (since == NEVER) {
      return 0.0;
    }
    return Math.max(0.0, Math.min(1.0, ScoreRows.WARM_LEVEL * ((double) (nowMs - since) / warmUpMs)));
  }

  /** Whether the weights are loaded at {@code nowMs}. */
  boolean warm(final long nowMs) {
    final long since = warmingSinceMs;
    return since != NEVER && nowMs - since >= warmUpMs;
  }

  /** Starts the weight load, unless it is loading or loaded already. */
  synchronized void startWarming(final long nowMs) {
    if (warmingSinceMs == NEVER) {
      warmingSinceMs = nowMs;
    }
  }

  /** Marks the KV cache out of memory from {@code nowMs}, unless it already is. */
  synchronized void outOfMemory(final long nowMs) {
    if (outOfMemorySinceMs == NEVER) {
      outOfMemorySinceMs = nowMs;
    }
  }

  boolean outOfMemory() {
    return outOfMemorySinceMs != NEVER;
  }

  /** How long the KV cache has been out of memory at {@code nowMs}; 0 when it is not. */
  long outOfMemoryForMs(final long nowMs) {
    final long since = outOfMemorySinceMs;
    return since == NEVER ? 0 : Math.max(0, nowMs - since);
  }

  /** Ends an out-of-memory episode and a stall. */
  synchronized void recover() {
    outOfMemorySinceMs = NEVER;
    stalled = false;
  }

  synchronized void packetLoss(final double fraction) {
    packetLoss = fraction;
  }

  double packetLoss() {
    return packetLoss;
  }

  synchronized void stalled(final boolean value) {
    stalled = value;
  }

  boolean stalled() {
    return stalled;
  }

  synchronized void crash() {
    crashed = true;
  }

  boolean crashed() {
    return crashed;
  }

  /**
   * A new life: cold, with a fresh allocator, nothing stalled and nothing crashed. The network's
   * loss is the network's, so it stays.
   */
  synchronized void restart() {
    life++;
    warmingSinceMs = NEVER;
    outOfMemorySinceMs = NEVER;
    stalled = false;
    crashed = false;
  }

  /** Which life the GPU is in; a sequence begun in an earlier one is lost. */
  int life() {
    return life;
  }
}
