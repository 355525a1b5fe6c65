package io.zerolayer.telemetry.internal;

import java.util.OptionalDouble;

/** The host's TCP segments sent and retransmitted, from node_exporter's netstat collector. */
public record TcpCounters(double retransSegs, double outSegs) implements Cumulative<TcpCounters> {

  @Override
  public TcpCounters since(final TcpCounters earlier) {
    if (retransSegs < earlier.retransSegs || outSegs < earlier.outSegs) {
      return this;
    }
    return new TcpCounters(retransSegs - earlier.retransSegs, outSegs - earlier.outSegs);
  }

  /** Retransmitted per sent segment; empty when nothing was sent. */
  public OptionalDouble retransmitRate() {
    return outSegs > 0 ? OptionalDouble.of(Math.min(1.0, retransSegs / outSegs)) : OptionalDouble.empty();
  }
}
