package io.zerolayer.telemetry.internal;

import io.zerolayer.telemetry.prometheus.Scrape;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Reads the host's TCP counters from node_exporter's netstat collector. They count every
 * connection of the host, not only the inference server's.
 */
public final class NetstatReader {

  private NetstatReader() {
  }

  /** Empty when the page lacks either counter (the netstat collector is off). */
  public static Optional<TcpCounters> read(final Scrape scrape) {
    final OptionalDouble retrans = scrape.sum("node_netstat_Tcp_RetransSegs");
    final OptionalDouble out = scrape.sum("node_netstat_Tcp_OutSegs");
    return retrans.isPresent() && out.isPresent()
        ? Optional.of(new TcpCounters(retrans.getAsDouble(), out.getAsDouble())) : Optional.empty();
  }
}
