package io.zerolayer.telemetry.internal;

import io.zerolayer.telemetry.prometheus.Histogram;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Reads a vLLM {@code /metrics} page, V0 engine (0.4 to 0.10) or V1 engine, whose names differ:
 * {@code gpu_cache_usage_perc} became {@code kv_cache_usage_perc}, the
 * {@code gpu_prefix_cache_hit_rate} gauge became hit and query counters, and
 * {@code time_per_output_token_seconds} became {@code inter_token_latency_seconds}.
 */
final class VllmReader {

  private VllmReader() {
  }

  static EngineReading read(final Scrape scrape) {
    return new EngineReading(
        ScrapeValues.label(scrape, "model_name", "vllm:num_requests_running", "vllm:num_requests_waiting"),
        ScrapeValues.sum(scrape, "vllm:num_requests_waiting"),
        ScrapeValues.sum(scrape, "vllm:num_requests_running"),
        ScrapeValues.mean(scrape, "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"),
        prefixHitRate(scrape),
        prefixCache(scrape),
        decode(scrape));
  }

  private static OptionalDouble prefixHitRate(final Scrape scrape) {
    final OptionalDouble gauge = ScrapeValues.mean(scrape, "vllm:gpu_prefix_cache_hit_rate");
    // vLLM V0 reports -1 when prefix caching is disabled: nothing is served from the cache.
    if (gauge.isPresent()) {
      return OptionalDouble.of(Math.max(0.0, gauge.getAsDouble()));
    }
    final boolean cachingOff = ScrapeValues.label(scrape, "enable_prefix_caching", "vllm:cache_config_info")
        .map("False"::equals).orElse(false);
    return cachingOff ? OptionalDouble.of(0.0) : OptionalDouble.empty();
  }

  private static Optional<CacheCounts> prefixCache(final Scrape scrape) {
    final OptionalDouble hits = ScrapeValues.sum(scrape, "vllm:prefix_cache_hits_total",
        "vllm:gpu_prefix_cache_hits_total");
    final OptionalDouble queries = ScrapeValues.sum(scrape, "vllm:prefix_cache_queries_total",
        "vllm:gpu_prefix_cache_queries_total");
    return hits.isPresent() && queries.isPresent()
        ? Optional.of(new CacheCounts(hits.getAsDouble(), queries.getAsDouble())) : Optional.empty();
  }

  private static Optional<DecodeCounters> decode(final Scrape scrape) {
    final Optional<Histogram> intervals = ScrapeValues.histogram(scrape, "vllm:inter_token_latency_seconds",
        "vllm:time_per_output_token_seconds");
    if (intervals.isEmpty()) {
      return Optional.empty();
    }
    // One observation per engine step, which emits several tokens under speculative decoding:
    // count tokens instead, every generated token but each sequence's first.
    final OptionalDouble generated = ScrapeValues.sum(scrape, "vllm:generation_tokens_total");
    final Optional<Histogram> firstTokens = ScrapeValues.histogram(scrape, "vllm:time_to_first_token_seconds");
    final double decoded = generated.isPresent() && firstTokens.isPresent()
        ? generated.getAsDouble() - firstTokens.get().count() : intervals.get().count();
    return Optional.of(new DecodeCounters(intervals.get(), decoded));
  }
}
