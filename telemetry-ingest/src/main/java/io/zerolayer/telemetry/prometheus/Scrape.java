package io.zerolayer.telemetry.prometheus;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/** One parsed {@code /metrics} page, immutable. */
public final class Scrape {

  private final List<Sample> samples;
  private final Map<String, MetricType> types;
  private final Map<String, String> help;
  private final Map<String, List<Sample>> byName = new HashMap<>();

  Scrape(final List<Sample> samples, final Map<String, MetricType> types, final Map<String, String> help) {
    this.samples = List.copyOf(samples);
    this.types = Map.copyOf(types);
    this.help = Map.copyOf(help);
    for (final Sample sample : this.samples) {
      byName.computeIfAbsent(sample.name(), name -> new ArrayList<>()).add(sample);
    }
  }

  /** Every sample, in page order. */
  public List<Sample> samples() {
    return samples;
  }

  /** The samples with exactly this name, one per label set. */
  public List<Sample> series(final String name) {
    return List.copyOf(byName.getOrDefault(requireNonNull(name, "name"), List.of()));
  }

  /** Whether any sample has exactly this name. */
  public boolean has(final String name) {
    return byName.containsKey(requireNonNull(name, "name"));
  }

  /** The family's declared type; {@link MetricType#UNTYPED} when it has no TYPE line. */
  public MetricType type(final String family) {
    return types.getOrDefault(requireNonNull(family, "family"), MetricType.UNTYPED);
  }

  /** The family's HELP text, unescaped. */
  public Optional<String> help(final String family) {
    return Optional.ofNullable(help.get(requireNonNull(family, "family")));
  }

  /** The total over every series of this name; empty when there is none. */
  public OptionalDouble sum(final String name) {
    final List<Sample> found = series(name);
    return found.isEmpty() ? OptionalDouble.empty()
        : OptionalDouble.of(found.stream().mapToDouble(Sample::value).sum());
  }

  /** The mean over every series of this name; empty when there is none. */
  public OptionalDouble mean(final String name) {
    return series(name).stream().mapToDouble(Sample::value).average();
  }

  /**
   * Each series of a histogram family, assembled from its {@code _bucket}, {@code _sum} and
   * {@code _count} samples; empty when the page has no such family.
   *
   * @throws PrometheusParseException when a series lacks {@code _sum} or {@code _count}, or its
   *     buckets are not a valid cumulative histogram
   */
  public List<Histogram> histograms(final String family) {
    final Map<Map<String, String>, List<Histogram.Bucket>> buckets = new LinkedHashMap<>();
    for (final Sample sample : series(family + "_bucket")) {
      final Map<String, String> labels = new HashMap<>(sample.labels());
      final String le = labels.remove("le");
      if (le == null) {
        throw new PrometheusParseException(family + "_bucket" + sample.labels() + " has no 'le' label");
      }
      buckets.computeIfAbsent(Map.copyOf(labels), key -> new ArrayList<>())
          .add(new Histogram.Bucket(bound(family, le), sample.value()));
    }
    final List<Histogram> histograms = new ArrayList<>();
    buckets.forEach((labels, series) -> histograms.add(histogram(family, labels, series)));
    return histograms;
  }

  private static double bound(final String family, final String le) {
    try {
      return SampleValues.parse(le);
    } catch (final NumberFormatException e) {
      throw new PrometheusParseException(family + "_bucket le label: " + e.getMessage());
    }
  }

  private Histogram histogram(final String family, final Map<String, String> labels,
      final List<Histogram.Bucket> buckets) {
    buckets.sort(Comparator.comparingDouble(Histogram.Bucket::upperBound));
    final double sum = valueWithLabels(family + "_sum", labels);
    final double count = valueWithLabels(family + "_count", labels);
    try {
      return new Histogram(labels, buckets, sum, count);
    } catch (final IllegalArgumentException e) {
      throw new PrometheusParseException("histogram " + family + labels + ": " + e.getMessage());
    }
  }

  private double valueWithLabels(final String name, final Map<String, String> labels) {
    return series(name).stream().filter(sample -> sample.labels().equals(labels)).mapToDouble(Sample::value)
        .findFirst().orElseThrow(() -> new PrometheusParseException("histogram series " + labels + " has no " + name));
  }
}
