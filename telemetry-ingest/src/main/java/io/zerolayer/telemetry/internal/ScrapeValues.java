package io.zerolayer.telemetry.internal;

import io.zerolayer.telemetry.prometheus.Histogram;
import io.zerolayer.telemetry.prometheus.Sample;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Reads one quantity from a page whatever its version calls it: the first name present wins.
 * Several series of one name (vLLM's data-parallel engines) are added up, or averaged for
 * fractions.
 */
final class ScrapeValues {

  private ScrapeValues() {
  }

  static OptionalDouble sum(final Scrape scrape, final String... names) {
    return first(scrape, names).map(scrape::sum).orElse(OptionalDouble.empty());
  }

  static OptionalDouble mean(final Scrape scrape, final String... names) {
    return first(scrape, names).map(scrape::mean).orElse(OptionalDouble.empty());
  }

  /** All series of the first histogram family present, added up. */
  static Optional<Histogram> histogram(final Scrape scrape, final String... families) {
    for (final String family : families) {
      final List<Histogram> series = scrape.histograms(family);
      if (!series.isEmpty()) {
        return series.stream().reduce(Histogram::plus);
      }
    }
    return Optional.empty();
  }

  /** A label of the first sample of the first name present. */
  static Optional<String> label(final Scrape scrape, final String label, final String... names) {
    return first(scrape, names).flatMap(name -> scrape.series(name).get(0).label(label));
  }

  private static Optional<String> first(final Scrape scrape, final String... names) {
    for (final String name : names) {
      if (scrape.has(name)) {
        return Optional.of(name);
      }
    }
    return Optional.empty();
  }

  static boolean anyStartsWith(final Scrape scrape, final String prefix) {
    return scrape.samples().stream().map(Sample::name).anyMatch(name -> name.startsWith(prefix));
  }
}
