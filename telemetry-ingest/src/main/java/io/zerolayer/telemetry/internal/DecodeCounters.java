package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.telemetry.prometheus.Histogram;
import java.util.OptionalDouble;

/**
 * The server's token-interval histogram and the tokens decoded over those intervals.
 *
 * @param intervals time between successive outputs of a sequence, in seconds, one observation
 *     per output step of each sequence after its first token
 * @param decodedTokens output tokens after each sequence's first. Equal to the histogram's count
 *     when each step emits one token; larger under speculative decoding, where one step can emit
 *     several.
 */
public record DecodeCounters(Histogram intervals, double decodedTokens) implements Cumulative<DecodeCounters> {

  public DecodeCounters {
    requireNonNull(intervals, "intervals");
  }

  @Override
  public DecodeCounters since(final DecodeCounters earlier) {
    if (intervals.count() < earlier.intervals.count() || decodedTokens < earlier.decodedTokens) {
      return this;
    }
    return new DecodeCounters(intervals.since(earlier.intervals), decodedTokens - earlier.decodedTokens);
  }

  /** Tokens per second of decode time, as one sequence sees it; empty without decode time. */
  public OptionalDouble tokensPerSecond() {
    return intervals.sum() > 0 ? OptionalDouble.of(decodedTokens / intervals.sum()) : OptionalDouble.empty();
  }
}
