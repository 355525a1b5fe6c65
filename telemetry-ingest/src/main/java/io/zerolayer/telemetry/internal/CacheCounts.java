package io.zerolayer.telemetry.internal;

import java.util.OptionalDouble;

/** Prefix-cache lookups and hits, in tokens, as vLLM V1 counts them. */
public record CacheCounts(double hits, double queries) implements Cumulative<CacheCounts> {

  @Override
  public CacheCounts since(final CacheCounts earlier) {
    if (hits < earlier.hits || queries < earlier.queries) {
      return this;
    }
    return new CacheCounts(hits - earlier.hits, queries - earlier.queries);
  }

  /** Hits per query; empty when nothing was looked up. */
  public OptionalDouble hitRate() {
    return queries > 0 ? OptionalDouble.of(Math.min(1.0, hits / queries)) : OptionalDouble.empty();
  }
}
