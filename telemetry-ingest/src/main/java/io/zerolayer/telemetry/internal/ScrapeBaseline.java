package io.zerolayer.telemetry.internal;

import java.util.Optional;

/**
 * One target's counters from its previous scrape, so that rates and the TGSV estimate describe
 * the time between two scrapes. Not thread-safe: one target is scraped by one task at a time.
 */
public final class ScrapeBaseline {

  private final CounterWindow<DecodeCounters> decode = new CounterWindow<>();
  private final CounterWindow<CacheCounts> prefixCache = new CounterWindow<>();
  private final CounterWindow<TcpCounters> tcp = new CounterWindow<>();

  /** The decode counters of this window; on the first scrape, since the server started. */
  public Optional<DecodeCounters> decodeWindow(final Optional<DecodeCounters> current) {
    return decode.advance(current);
  }

  /** The prefix-cache counters of this window; on the first scrape, since the server started. */
  public Optional<CacheCounts> prefixCacheWindow(final Optional<CacheCounts> current) {
    return prefixCache.advance(current);
  }

  /** The TCP counters of this window; on the first scrape, since the host booted. */
  public Optional<TcpCounters> tcpWindow(final Optional<TcpCounters> current) {
    return tcp.advance(current);
  }
}
