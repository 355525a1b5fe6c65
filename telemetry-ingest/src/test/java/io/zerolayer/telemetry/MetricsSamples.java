package io.zerolayer.telemetry;

import io.zerolayer.telemetry.prometheus.PrometheusTextParser;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The real {@code /metrics} pages in {@code src/test/resources/metrics} (see SOURCES.md there). */
public final class MetricsSamples {

  public static final String VLLM_V1 = "vllm-v1-lmswitch-fixture.prom";
  public static final String VLLM_04 = "vllm-0.4-datadog-fixture.prom";
  public static final String VLLM_07 = "vllm-0.7-aibrix-docs.prom";
  public static final String SGLANG = "sglang-docs-production-metrics.prom";
  public static final String DCGM_T4 = "dcgm-exporter-datadog-t4.prom";
  public static final String DCGM_A100_MIG = "dcgm-exporter-nvidia-docs-a100-mig.prom";
  public static final String NODE_NETSTAT = "node-exporter-netstat.prom";

  private MetricsSamples() {
  }

  public static String text(final String file) {
    try (InputStream in = Objects.requireNonNull(MetricsSamples.class.getResourceAsStream("/metrics/" + file), file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Scrape scrape(final String file) {
    return PrometheusTextParser.parse(text(file));
  }

  /**
   * The page with the value of one sample line changed, as a later scrape of the same server
   * would show it. {@code series} is the line up to its value, e.g. {@code foo{a="b"}}.
   */
  public static String withValue(final String page, final String series, final String value) {
    final Matcher line = Pattern.compile("(?m)^" + Pattern.quote(series) + " \\S+$").matcher(page);
    if (!line.find()) {
      throw new IllegalArgumentException("no sample " + series);
    }
    return page.substring(0, line.start()) + series + " " + value + page.substring(line.end());
  }
}
