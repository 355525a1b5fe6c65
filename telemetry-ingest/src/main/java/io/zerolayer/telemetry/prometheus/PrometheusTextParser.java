package io.zerolayer.telemetry.prometheus;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A strict reader of the Prometheus text exposition format 0.0.4: every malformed line is an
 * error naming the line, never skipped. Families without a {@code # TYPE} line are
 * {@link MetricType#UNTYPED}. Histogram structure ({@code +Inf} bucket, monotonic buckets,
 * {@code _count}) is checked when a histogram is asked for, so a broken family nobody reads does
 * not lose the whole scrape.
 */
public final class PrometheusTextParser {

  private static final List<String> HISTOGRAM_SUFFIXES = List.of("_bucket", "_sum", "_count");

  private final Map<String, MetricType> types = new HashMap<>();
  private final Map<String, String> help = new HashMap<>();
  private final Set<String> familiesSeen = new HashSet<>();
  private final Set<SeriesKey> series = new HashSet<>();
  private final List<Sample> samples = new ArrayList<>();

  private PrometheusTextParser() {
  }

  /**
   * @throws PrometheusParseException at the first line that is not valid
   */
  public static Scrape parse(final String text) {
    requireNonNull(text, "text");
    final PrometheusTextParser parser = new PrometheusTextParser();
    final String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      // Servers behind some proxies end lines with CRLF; the CR is never part of a value.
      final String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
      parser.line(line, i + 1);
    }
    return new Scrape(parser.samples, parser.types, parser.help);
  }

  private void line(final String line, final int lineNumber) {
    if (line.isBlank()) {
      return;
    }
    if (line.stripLeading().startsWith("#")) {
      comment(line.stripLeading().substring(1).strip(), lineNumber);
    } else {
      sample(SampleLineReader.read(line, lineNumber), lineNumber);
    }
  }

  private void comment(final String comment, final int lineNumber) {
    final String[] parts = comment.split("[ \t]+", 3);
    if (parts[0].equals("HELP")) {
      final String family = familyName(parts, lineNumber);
      if (help.put(family, parts.length == 3 ? HelpText.unescape(parts[2], lineNumber) : "") != null) {
        throw PrometheusParseException.atLine(lineNumber, "second HELP line for " + family);
      }
    } else if (parts[0].equals("TYPE")) {
      final String family = familyName(parts, lineNumber);
      if (parts.length != 3) {
        throw PrometheusParseException.atLine(lineNumber, "TYPE line for " + family + " names no type");
      }
      if (familiesSeen.contains(family)) {
        throw PrometheusParseException.atLine(lineNumber, "TYPE line for " + family + " after its samples");
      }
      if (types.put(family, type(parts[2], lineNumber)) != null) {
        throw PrometheusParseException.atLine(lineNumber, "second TYPE line for " + family);
      }
    }
  }

  private static String familyName(final String[] parts, final int lineNumber) {
    if (parts.length < 2 || !parts[1].matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
      throw PrometheusParseException.atLine(lineNumber, parts[0] + " line without a valid metric name");
    }
    return parts[1];
  }

  private static MetricType type(final String type, final int lineNumber) {
    try {
      return MetricType.valueOf(type.toUpperCase(Locale.ROOT));
    } catch (final IllegalArgumentException e) {
      throw PrometheusParseException.atLine(lineNumber, "unknown metric type '" + type + "'");
    }
  }

  private void sample(final Sample sample, final int lineNumber) {
    final String family = familyOf(sample.name(), types);
    final MetricType type = types.getOrDefault(family, MetricType.UNTYPED);
    if (type == MetricType.HISTOGRAM && family.equals(sample.name())) {
      throw PrometheusParseException.atLine(lineNumber, "histogram sample without _bucket, _sum or _count");
    }
    if (type == MetricType.HISTOGRAM && sample.name().endsWith("_bucket")) {
      boundLabel(sample, "le", lineNumber);
    }
    if (type == MetricType.SUMMARY && family.equals(sample.name())) {
      boundLabel(sample, "quantile", lineNumber);
    }
    familiesSeen.add(family);
    if (!series.add(new SeriesKey(sample.name(), sample.labels()))) {
      throw PrometheusParseException.atLine(lineNumber, "second sample of series " + sample.name() + sample.labels());
    }
    samples.add(sample);
  }

  private static void boundLabel(final Sample sample, final String label, final int lineNumber) {
    final String bound = sample.label(label).orElseThrow(
        () -> PrometheusParseException.atLine(lineNumber, sample.name() + " has no '" + label + "' label"));
    try {
      SampleValues.parse(bound);
    } catch (final NumberFormatException e) {
      throw PrometheusParseException.atLine(lineNumber, label + " label: " + e.getMessage());
    }
  }

  /** The family a sample belongs to: a histogram's or summary's for its suffixed samples. */
  private static String familyOf(final String sampleName, final Map<String, MetricType> types) {
    if (types.containsKey(sampleName)) {
      return sampleName;
    }
    for (final String suffix : HISTOGRAM_SUFFIXES) {
      if (sampleName.endsWith(suffix)) {
        final String base = sampleName.substring(0, sampleName.length() - suffix.length());
        final MetricType type = types.get(base);
        if (type == MetricType.HISTOGRAM || (type == MetricType.SUMMARY && !suffix.equals("_bucket"))) {
          return base;
        }
      }
    }
    return sampleName;
  }

  private record SeriesKey(String name, Map<String, String> labels) {
  }
}
