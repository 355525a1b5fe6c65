package io.zerolayer.fleet.load;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.RoutingOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What happened to one request of a load, as the client saw it. Times are on the load's clock
 * ({@link LoadScheduler#nanoTime()}).
 *
 * @param sequenceId the request's sequence id
 * @param band the prompt's size class
 * @param promptTokens prompt tokens sent
 * @param maxOutputTokens the output limit sent
 * @param concurrency users active (closed loop) or requests in flight (open loop) when it was sent
 * @param status how it ended
 * @param routing the routing outcome the final chunk carries; null when no final chunk came
 * @param reason why it was rejected, throttled or failed, or null
 * @param retryAfterMs when a throttled request may be retried, or null
 * @param sentNanos when it was sent
 * @param finishedNanos when its final chunk arrived, or when the client gave up on it
 * @param chunks the response chunks received, in order (none when it timed out or failed)
 */
public record RequestOutcome(String sequenceId, PromptBand band, int promptTokens, int maxOutputTokens,
    int concurrency, Status status, RoutingOutcome routing, String reason, Long retryAfterMs, long sentNanos,
    long finishedNanos, List<ChunkArrival> chunks) {

  /** How a request ended. */
  public enum Status {
    /** The stream finished normally. */
    COMPLETED,
    /** Refused by the rate limit or for want of capacity, with a retry-after. */
    THROTTLED,
    /** Refused as invalid (never retried). */
    REJECTED,
    /** The final chunk did not arrive within the load's timeout. */
    TIMED_OUT,
    /** The stream ended with an error, or sending or reading it failed. */
    FAILED
  }

  public RequestOutcome {
    requireNonNull(sequenceId, "sequenceId");
    requireNonNull(band, "band");
    requireNonNull(status, "status");
    chunks = List.copyOf(chunks);
  }

  /** Whether the request failed from the client's side: timed out, failed or rejected. */
  public boolean isError() {
    return status == Status.TIMED_OUT || status == Status.FAILED || status == Status.REJECTED;
  }

  /** Whether it was throttled. */
  public boolean isThrottled() {
    return status == Status.THROTTLED;
  }

  /** From sending to the final chunk (or to giving up). */
  public Duration latency() {
    return Duration.ofNanos(finishedNanos - sentNanos);
  }

  /** From sending to the first chunk with a token; empty when no token came. */
  public Optional<Duration> timeToFirstToken() {
    return chunks.stream().filter(c -> c.tokens() > 0).findFirst()
        .map(c -> Duration.ofNanos(c.atNanos() - sentNanos));
  }

  /** Tokens received. */
  public int outputTokens() {
    return chunks.stream().mapToInt(ChunkArrival::tokens).sum();
  }

  /** The instances that generated its tokens, in the order they served it (more than one after a cut-over). */
  public List<String> instances() {
    return chunks.stream().filter(c -> c.tokens() > 0).map(ChunkArrival::instanceId)
        .filter(Objects::nonNull).distinct().toList();
  }

  /** When each token arrived: tokens of one chunk arrive together. */
  public long[] tokenArrivalNanos() {
    final long[] times = new long[outputTokens()];
    int next = 0;
    for (final ChunkArrival chunk : chunks) {
      for (int i = 0; i < chunk.tokens(); i++) {
        times[next++] = chunk.atNanos();
      }
    }
    return times;
  }

  /**
   * The population standard deviation of the intervals between consecutive tokens, in
   * milliseconds; empty with fewer than two intervals.
   */
  public OptionalDouble tokenIntervalStddevMs() {
    final long[] times = tokenArrivalNanos();
    final int intervals = times.length - 1;
    if (intervals < 2) {
      return OptionalDouble.empty();
    }
    final double mean = (double) (times[intervals] - times[0]) / intervals;
    double squares = 0;
    for (int i = 1; i < times.length; i++) {
      final double deviation = (times[i] - times[i - 1]) - mean;
      squares += deviation * deviation;
    }
    return OptionalDouble.of(Math.sqrt(squares / intervals) / 1_000_000.0);
  }
}
