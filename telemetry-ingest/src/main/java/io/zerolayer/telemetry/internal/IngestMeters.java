package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * telemetry-ingest's own meters: samples by source and what became of them, and scrape rounds
 * that sent nothing. It counts from its creation, so the push endpoint and the scraper can be
 * built before the HTTP server that serves the meters.
 */
public final class IngestMeters implements MeterBinder {

  /** Where a sample came from. */
  public enum Source { PUSH, SCRAPE }

  private final Map<Source, LongAdder> published = adders();
  private final Map<Source, LongAdder> rejected = adders();
  private final Map<Source, LongAdder> unsent = adders();
  private final Map<String, LongAdder> scrapeFailures = new HashMap<>();

  /**
   * @param targets the instance ids of the scraped targets
   */
  public IngestMeters(final Collection<String> targets) {
    targets.forEach(id -> scrapeFailures.put(id, new LongAdder()));
  }

  @Override
  public void bindTo(final MeterRegistry registry) {
    requireNonNull(registry, "registry");
    for (final Source source : Source.values()) {
      final String tag = source.name().toLowerCase(Locale.ROOT);
      FunctionCounter.builder("zerolayer.telemetry.samples.published", published.get(source), LongAdder::doubleValue)
          .description("Telemetry samples the broker acknowledged, by source").tag("source", tag).register(registry);
      FunctionCounter.builder("zerolayer.telemetry.samples.rejected", rejected.get(source), LongAdder::doubleValue)
          .description("Telemetry samples refused as malformed or impossible, by source").tag("source", tag)
          .register(registry);
      FunctionCounter.builder("zerolayer.telemetry.samples.unsent", unsent.get(source), LongAdder::doubleValue)
          .description("Valid telemetry samples that could not be published, by source").tag("source", tag)
          .register(registry);
    }
    // One series per target of the targets file, which bounds the cardinality.
    scrapeFailures.forEach((id, failures) -> FunctionCounter.builder("zerolayer.telemetry.scrape.failures",
            failures, LongAdder::doubleValue)
        .description("Scrape rounds of a target that sent no sample").tag("target", id).register(registry));
  }

  public void published(final Source source) {
    published.get(source).increment();
  }

  public void rejected(final Source source) {
    rejected.get(source).increment();
  }

  public void unsent(final Source source) {
    unsent.get(source).increment();
  }

  /** A scrape round of the target sent no sample: a page could not be had, parsed or mapped, or was refused. */
  public void scrapeFailed(final String instanceId) {
    requireNonNull(scrapeFailures.get(instanceId), () -> "not a scraped target: " + instanceId).increment();
  }

  private static Map<Source, LongAdder> adders() {
    final Map<Source, LongAdder> adders = new EnumMap<>(Source.class);
    for (final Source source : Source.values()) {
      adders.put(source, new LongAdder());
    }
    return adders;
  }
}
