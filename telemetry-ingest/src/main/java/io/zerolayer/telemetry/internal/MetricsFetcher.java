package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.telemetry.prometheus.PrometheusTextParser;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Fetches and parses one {@code /metrics} page. */
public final class MetricsFetcher {

  // Ask for the classic text format: servers built on prometheus_client answer OpenMetrics
  // only when asked, and OpenMetrics differs (# EOF, _created lines, units).
  private static final String ACCEPT = "text/plain; version=0.0.4";

  private final HttpClient client;
  private final Duration timeout;

  public MetricsFetcher(final HttpClient client, final Duration timeout) {
    this.client = requireNonNull(client, "client");
    this.timeout = requireNonNull(timeout, "timeout");
  }

  /**
   * @throws IOException when the page cannot be had in time or the answer is not 200
   * @throws io.zerolayer.telemetry.prometheus.PrometheusParseException when the page is malformed
   */
  public Scrape fetch(final URI uri) throws IOException, InterruptedException {
    final HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", ACCEPT).GET().build();
    final HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    if (response.statusCode() != 200) {
      throw new IOException(uri + " answered HTTP " + response.statusCode());
    }
    return PrometheusTextParser.parse(response.body());
  }
}
