package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Replays a recorded request trace in the format of the Azure LLM inference trace 2023
 * ({@code TIMESTAMP,ContextTokens,GeneratedTokens}): arrival times relative to the first
 * request, divided by a speed-up, and token counts clamped to limits a small machine can
 * serve. Prompt text is not part of the trace; it is written to the recorded token count.
 *
 * <p>Data: Azure LLM inference trace 2023, Azure Public Dataset, licensed CC-BY 4.0. Cite:
 * Patel et al., "Splitwise: Efficient generative LLM inference using phase splitting",
 * ISCA 2024. Keep this attribution wherever the trace or a figure derived from it is published.
 */
public final class TraceReplay implements RequestSource {

  /** The attribution the trace's licence asks for. */
  public static final String ATTRIBUTION = "Azure LLM inference trace 2023 (Azure Public Dataset), CC-BY 4.0;"
      + " Patel et al., \"Splitwise: Efficient generative LLM inference using phase splitting\", ISCA 2024";

  /**
   * How to replay.
   *
   * @param speedup how many times faster than recorded (10 replays an hour in six minutes)
   * @param maxRequests how many requests, from the start of the trace, at most
   * @param promptTokens limits the recorded prompt lengths are clamped to
   * @param outputTokens limits the recorded output lengths are clamped to
   * @param seed the generation seed of the workload (prompt text and request seeds)
   */
  public record Settings(double speedup, int maxRequests, TokenRange promptTokens, TokenRange outputTokens,
      long seed) {

    public Settings {
      if (!(speedup > 0) || Double.isInfinite(speedup)) {
        throw new IllegalArgumentException("The speed-up must be a positive number, got " + speedup);
      }
      if (maxRequests < 1) {
        throw new IllegalArgumentException("maxRequests must be at least 1, got " + maxRequests);
      }
      requireNonNull(promptTokens, "promptTokens");
      requireNonNull(outputTokens, "outputTokens");
    }
  }

  /**
   * One request of the replay.
   *
   * @param at when it is due, from the start of the replay (already divided by the speed-up)
   * @param promptTokens its prompt length, clamped
   * @param outputTokens its output length, clamped; the request's output limit
   */
  public record Arrival(Duration at, int promptTokens, int outputTokens) {
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

  @Override
  public RequestSpec spec(final long index) {
    final Arrival arrival = arrivals.get(Math.toIntExact(index));
    final long requestSeed = Seeds.of(settings.seed(), index);
    return new RequestSpec(PromptBand.of(arrival.promptTokens()), writer.write(arrival.promptTokens(), requestSeed),
        arrival.promptTokens(), arrival.outputTokens(), requestSeed);
  }

  @Override
  public String describe() {
    final Duration span = arrivals.isEmpty() ? Duration.ZERO : arrivals.get(arrivals.size() - 1).at();
    return String.format("Replaying %d requests of %s over %.1f s (%.1fx faster than recorded), prompt tokens"
        + " clamped to %s, output tokens to %s. Data: %s", arrivals.size(), file.getFileName(),
        span.toMillis() / 1000.0, settings.speedup(), settings.promptTokens(), settings.outputTokens(), ATTRIBUTION);
  }
}
