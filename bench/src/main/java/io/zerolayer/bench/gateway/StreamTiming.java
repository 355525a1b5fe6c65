package io.zerolayer.bench.gateway;

import java.util.ArrayList;
import java.util.List;

/** When one streamed answer's pieces of text reached the client, from its sending on. */
final class StreamTiming {

  private final long sentNanos;
  private final List<Long> pieces = new ArrayList<>();

  StreamTiming(final long sentNanos) {
    this.sentNanos = sentNanos;
  }

  synchronized void piece(final long atNanos) {
    pieces.add(atNanos);
  }

  /** Time to the first piece, in ms; -1 when none came. */
  synchronized double firstTokenMs() {
    return pieces.isEmpty() ? -1 : (pieces.get(0) - sentNanos) / 1e6;
  }

  /** The gaps between consecutive pieces, in ms. */
  synchronized List<Double> gapsMs() {
    final List<Double> gaps = new ArrayList<>(Math.max(0, pieces.size() - 1));
    for (int i = 1; i < pieces.size(); i++) {
      gaps.add((pieces.get(i) - pieces.get(i - 1)) / 1e6);
    }
    return gaps;
  }

  /** Tokens a second from the first piece to the last, for an answer of {@code tokens}; 0 when too short. */
  synchronized double tokensPerSecond(final int tokens) {
    if (pieces.size() < 2) {
      return 0;
    }
    return (tokens - 1) / ((pieces.get(pieces.size() - 1) - pieces.get(0)) / 1e9);
  }
}
