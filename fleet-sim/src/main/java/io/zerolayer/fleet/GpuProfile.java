package io.zerolayer.fleet;

import java.time.Duration;

/**
 * How a simulated instance performs: a continuous-batching server whose prefill grows with
 * the prompt and whose decode step grows with the batch.
 *
 * @param maxBatch sequences decoded together; more wait in the queue
 * @param prefillBaseMs fixed prefill cost
 * @param prefillPerInputTokenMs prefill cost per prompt token
 * @param decodeBaseMs decode step with a batch of one
 * @param decodePerSequenceMs extra decode step per sequence in the batch
 * @param warmUp time from cold to fully warm
 * @param tokensPerChunk tokens per published chunk
 */
public record GpuProfile(int maxBatch, double prefillBaseMs, double prefillPerInputTokenMs, double decodeBaseMs,
    double decodePerSequenceMs, Duration warmUp, int tokensPerChunk) {

  /** A mid-size model on one accelerator, scaled so a laptop runs a handful of them. */
  public static GpuProfile standard() {
    return new GpuProfile(16, 20, 0.05, 8, 0.5, Duration.ofSeconds(8), 4);
  }
}
