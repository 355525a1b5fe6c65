package io.zerolayer.fleet;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a simulated instance performs: a continuous-batching server whose prefill grows with
 * the uncached part of the prompt and whose decode step grows with the batch.
 *
 * @param instanceClass the class it reports in its telemetry; instances of one class perform alike
 * @param maxBatch sequences decoded together; more wait in the queue
 * @param prefillBaseMs fixed prefill cost
 * @param prefillPerInputTokenMs prefill cost per prompt token not in the prefix cache
 * @param decodeBaseMs decode step with a batch of one
 * @param decodePerSequenceMs extra decode step per sequence in the batch
 * @param warmUp time from cold to fully warm
 * @param tokensPerChunk tokens per published chunk
 * @param prefixCacheBlocks prompt blocks its prefix cache holds at most ({@link PrefixCache})
 */
public record GpuProfile(String instanceClass, int maxBatch, double prefillBaseMs, double prefillPerInputTokenMs,
    double decodeBaseMs, double decodePerSequenceMs, Duration warmUp, int tokensPerChunk, int prefixCacheBlocks) {

  /** Prefix-cache blocks of the standard class: some 57,000 tokens of prompt text. */
  static final int STANDARD_CACHE_BLOCKS = 4096;

  public GpuProfile {
    requireNonNull(instanceClass, "instanceClass");
    requireNonNull(warmUp, "warmUp");
  }

  /** A profile of the standard class with the standard prefix cache. */
  public GpuProfile(final int maxBatch, final double prefillBaseMs, final double prefillPerInputTokenMs,
      final double decodeBaseMs, final double decodePerSequenceMs, final Duration warmUp, final int tokensPerChunk) {
    this("standard", maxBatch, prefillBaseMs, prefillPerInputTokenMs, decodeBaseMs, decodePerSequenceMs, warmUp,
        tokensPerChunk, STANDARD_CACHE_BLOCKS);
  }

  /** A mid-size model on one accelerator, scaled so a laptop runs a handful of them. */
  public static GpuProfile standard() {
    return new GpuProfile(16, 20, 0.05, 8, 0.5, Duration.ofSeconds(8), 4);
  }

  /**
   * The fast class of a mixed fleet: prefill weighs as it does for long prompts on a real
   * accelerator (0.2 ms per uncached prompt token, so a 1,000-token prompt prefills in 220 ms).
   */
  public static GpuProfile fast() {
    return new GpuProfile("fast", 16, 20, 0.2, 8, 0.5, Duration.ofSeconds(8), 4, STANDARD_CACHE_BLOCKS);
  }

  /** The slow class of a mixed fleet: 2.5 times the fast class's prefill and decode step, half its batch and cache. */
  public static GpuProfile slow() {
    return new GpuProfile("slow", 8, 50, 0.5, 20, 1.25, Duration.ofSeconds(8), 4, STANDARD_CACHE_BLOCKS / 2);
  }

  /**
   * The profile of a class by name: {@code standard}, {@code fast} or {@code slow}.
   *
   * @throws IllegalArgumentException naming the classes, for any other name
   */
  public static GpuProfile named(final String instanceClass) {
    return switch (instanceClass) {
      case "standard" -> standard();
      case "fast" -> fast();
      case "slow" -> slow();
      default -> throw new IllegalArgumentException("Unknown instance class '" + instanceClass
          + "': use standard, fast or slow");
    };
  }
}
