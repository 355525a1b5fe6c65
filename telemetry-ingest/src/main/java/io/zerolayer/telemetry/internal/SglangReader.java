package io.zerolayer.telemetry.internal;

import io.zerolayer.telemetry.prometheus.Histogram;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.util.Optional;

/**
 * Reads an SGLang {@code /metrics} page. Its time-per-output-token histogram counts one
 * observation per token, so the histogram's own count is the decoded tokens (its
 * {@code generation_tokens_total} does not line up with it).
 */
final class SglangReader {

  private SglangReader() {
  }

  static EngineReading read(final Scrape scrape) {
    final Optional<Histogram> intervals = ScrapeValues.histogram(scrape, "sglang:inter_token_latency_seconds",
        "sglang:time_per_output_token_seconds");
    return new EngineReading(
        ScrapeValues.label(scrape, "model_name", "sglang:num_running_reqs", "sglang:num_queue_reqs"),
        ScrapeValues.sum(scrape, "sglang:num_queue_reqs"),
        ScrapeValues.sum(scrape, "sglang:num_running_reqs"),
        ScrapeValues.mean(scrape, "sglang:token_usage"),
        ScrapeValues.mean(scrape, "sglang:cache_hit_rate"),
        Optional.empty(),
        intervals.map(histogram -> new DecodeCounters(histogram, histogram.count())));
  }
}
