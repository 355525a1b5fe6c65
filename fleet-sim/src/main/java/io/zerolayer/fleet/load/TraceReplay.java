package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Replays a recorded request trace, in the format of the Azure LLM inference trace 2023
 * ({@code TIMESTAMP,ContextTokens,GeneratedTokens}) or of the Mooncake traces (JSON lines with
 * prefix-block hashes): arrival times relative to the first request, divided by a speed-up, and
 * token counts clamped to limits a small machine can serve. Prompt text is not part of either
 * trace; it is written to the recorded token count, and for a Mooncake trace block by block, each
 * block's text a function of its hash id, so that requests sharing leading blocks share that
 * prefix of their prompts.
 *
 * <p>Data: Azure LLM inference trace 2023, Azure Public Dataset, licensed CC-BY 4.0. Cite:
 * Patel et al., "Splitwise: Efficient generative LLM inference using phase splitting",
 * ISCA 2024. Mooncake traces, kvcache-ai/Mooncake, licensed Apache-2.0. Cite: Qin et al.,
 * "Mooncake: A KVCache-centric Disaggregated Architecture for LLM Serving", FAST 2025. Keep the
 * attribution wherever a trace or a figure derived from it is published.
 */
public final class TraceReplay implements RequestSource {

  /** The attribution the Azure trace's licence asks for. */
  public static final String ATTRIBUTION = "Azure LLM inference trace 2023 (Azure Public Dataset), CC-BY 4.0;"
      + " Patel et al., \"Splitwise: Efficient generative LLM inference using phase splitting\", ISCA 2024";
  /** The attribution of the Mooncake traces. */
  public static final String MOONCAKE_ATTRIBUTION = "Mooncake trace (kvcache-ai/Mooncake), Apache-2.0;"
      + " Qin et al., \"Mooncake: A KVCache-centric Disaggregated Architecture for LLM Serving\", FAST 2025";
  /** Prompt tokens a block of a Mooncake trace is written as. */
  public static final int BLOCK_TOKENS = 16;

  /**
   * How to replay.
   *
   * @param speedup how many times faster than recorded (10 replays an hour in six minutes)
   * @param firstRequest how many of the trace's first requests are passed over; the replay starts
   *     at the next one, its arrival times counted from it
   * @param maxRequests how many requests, from the first replayed, at most
   * @param promptTokens limits the recorded prompt lengths are clamped to
   * @param outputTokens limits the recorded output lengths are clamped to
   * @param seed the generation seed of the workload (prompt text and request seeds)
   */
  public record Settings(double speedup, int firstRequest, int maxRequests, TokenRange promptTokens,
      TokenRange outputTokens, long seed) {

    public Settings {
      if (!(speedup > 0) || Double.isInfinite(speedup)) {
        throw new IllegalArgumentException("The speed-up must be a positive number, got " + speedup);
      }
      if (firstRequest < 0) {
        throw new IllegalArgumentException("firstRequest must be 0 or more, got " + firstRequest);
      }
      if (maxRequests < 1) {
        throw new IllegalArgumentException("maxRequests must be at least 1, got " + maxRequests);
      }
      requireNonNull(promptTokens, "promptTokens");
      requireNonNull(outputTokens, "outputTokens");
    }

    /** A replay from the trace's first request. */
    public Settings(final double speedup, final int maxRequests, final TokenRange promptTokens,
        final TokenRange outputTokens, final long seed) {
      this(speedup, 0, maxRequests, promptTokens, outputTokens, seed);
    }

    /** How many rows are read from the trace's start: those passed over, then those replayed. */
    int rowsToRead() {
      return (int) Math.min(Integer.MAX_VALUE, (long) firstRequest + maxRequests);
    }
  }

  /**
   * One request of the replay.
   *
   * @param at when it is due, from the start of the replay (already divided by the speed-up)
   * @param promptTokens its prompt length, clamped
   * @param outputTokens its output length, clamped; the request's output limit
   * @param prefixBlocks the hash ids of its prompt's blocks, first first; empty when the trace has none
   */
  public record Arrival(Duration at, int promptTokens, int outputTokens, List<Long> prefixBlocks) {

    public Arrival {
      prefixBlocks = List.copyOf(prefixBlocks);
    }

    /** An arrival whose prompt shares nothing known with others. */
    public Arrival(final Duration at, final int promptTokens, final int outputTokens) {
      this(at, promptTokens, outputTokens, List.of());
    }
  }

  private final Path file;
  private final Settings settings;
  private final List<Arrival> arrivals;
  private final PromptWriter writer;

  private TraceReplay(final Path file, final Settings settings, final List<Arrival> arrivals,
      final PromptWriter writer) {
    this.file = file;
    this.settings = settings;
    this.arrivals = List.copyOf(arrivals);
    this.writer = writer;
  }

  /**
   * Reads the trace at {@code file}.
   *
   * @throws java.nio.file.NoSuchFileException naming the path when there is no file there
   * @throws IOException when it cannot be read, or a line is not a trace row (naming the line)
   */
  public static TraceReplay read(final Path file, final Settings settings, final PromptWriter writer)
      throws IOException {
    requireNonNull(file, "file");
    requireNonNull(settings, "settings");
    requireNonNull(writer, "writer");
    return new TraceReplay(file, settings, TraceFile.read(file, settings), writer);
  }

  /** The requests of the replay, in trace order. */
  public List<Arrival> arrivals() {
    return arrivals;
  }

  /** When each request is due, from the start of the replay. */
  public List<Duration> schedule() {
    return arrivals.stream().map(Arrival::at).toList();
  }

  /**
   * The request of the trace's {@code index}th arrival. It asks for exactly the recorded output
   * length (as serving benchmarks replay traces, with {@code ignore_eos}): the trace says what
   * was generated, not a limit the model could stop short of.
   */
  @Override
  public RequestSpec spec(final long index) {
    final Arrival arrival = arrivals.get(Math.toIntExact(index));
    final long requestSeed = Seeds.of(settings.seed(), index);
    if (arrival.prefixBlocks().isEmpty()) {
      return new RequestSpec(PromptBand.of(arrival.promptTokens()), writer.write(arrival.promptTokens(),
          requestSeed), arrival.promptTokens(), arrival.outputTokens(), requestSeed, true);
    }
    final String prompt = blockPrompt(arrival);
    final int tokens = writer.count(prompt);
    return new RequestSpec(PromptBand.of(tokens), prompt, tokens, arrival.outputTokens(), requestSeed, true);
  }

  /** One passage per block, its text a function of the block's hash id and length alone. */
  private String blockPrompt(final Arrival arrival) {
    final StringBuilder prompt = new StringBuilder();
    final List<Long> blocks = arrival.prefixBlocks();
    for (int i = 0; i < blocks.size(); i++) {
      final int tokens = i < blocks.size() - 1 ? BLOCK_TOKENS
          : Math.max(1, arrival.promptTokens() - BLOCK_TOKENS * (blocks.size() - 1));
      prompt.append(writer.write(tokens, Seeds.of(settings.seed(), blocks.get(i)))).append('\n');
    }
    return prompt.toString();
  }

  @Override
  public String describe() {
    final Duration span = arrivals.isEmpty() ? Duration.ZERO : arrivals.get(arrivals.size() - 1).at();
    return String.format("Replaying %d requests of %s%s over %.1f s (%.1fx faster than recorded), prompt tokens"
        + " clamped to %s, output tokens to %s, each generated in full; %s", arrivals.size(), file.getFileName(),
        settings.firstRequest() == 0 ? "" : " from its request " + (settings.firstRequest() + 1),
        span.toMillis() / 1000.0, settings.speedup(), settings.promptTokens(), settings.outputTokens(),
        mooncake() ? "prompts of " + BLOCK_TOKENS + " tokens per trace block (1/" + MooncakeTraceFile.TRACE_BLOCK_TOKENS
            / BLOCK_TOKENS + " of the recorded length). Data: " + MOONCAKE_ATTRIBUTION : "Data: " + ATTRIBUTION);
  }

  /** Whether the trace carries prefix blocks (the Mooncake format). */
  private boolean mooncake() {
    return arrivals.stream().anyMatch(arrival -> !arrival.prefixBlocks().isEmpty());
  }
}
