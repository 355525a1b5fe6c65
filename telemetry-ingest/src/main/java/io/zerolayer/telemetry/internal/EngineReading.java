package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one scrape of an inference server says, in the server's own terms; empty where the server
 * does not report it.
 *
 * @param kvCacheUsage fraction of the KV-cache pool in use. Parsed but not mapped: the telemetry
 *     record has no field for it, and it is neither VRAM in bytes nor fragmentation.
 * @param prefixHitRate a hit-rate gauge the server computes itself (vLLM V0, SGLang), or 0 when
 *     prefix caching is off
 * @param prefixCache prefix-cache hit and query counters (vLLM V1), for a windowed rate
 */
public record EngineReading(Optional<String> model, OptionalDouble queueLength, OptionalDouble runningRequests,
    OptionalDouble kvCacheUsage, OptionalDouble prefixHitRate, Optional<CacheCounts> prefixCache,
    Optional<DecodeCounters> decode) {

  public EngineReading {
    requireNonNull(model, "model");
    requireNonNull(queueLength, "queueLength");
    requireNonNull(runningRequests, "runningRequests");
    requireNonNull(kvCacheUsage, "kvCacheUsage");
    requireNonNull(prefixHitRate, "prefixHitRate");
    requireNonNull(prefixCache, "prefixCache");
    requireNonNull(decode, "decode");
  }
}
