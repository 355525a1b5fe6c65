package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The router's transaction meters, read from its {@code /metrics}: how many transactions it
 * committed, the records they routed, and the time spent routing and committing them. Two
 * readings give the figures of the time between them.
 */
final class RouterTransactions {

  /**
   * Running totals since the router started.
   *
   * @param transactions committed transactions
   * @param records records routed in them
   * @param routeSeconds time spent routing (deciding, sending the records)
   * @param commitSeconds time spent committing (the last records, the offsets, the commit)
   */
  record Totals(double transactions, double records, double routeSeconds, double commitSeconds) {

    /** The totals of the time from {@code earlier} to this reading. */
    Totals since(final Totals earlier) {
      return new Totals(transactions - earlier.transactions, records - earlier.records,
          routeSeconds - earlier.routeSeconds, commitSeconds - earlier.commitSeconds);
    }
  }

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final URI metrics;

  /**
   * @param metrics the router's metrics endpoint
   */
  RouterTransactions(final URI metrics) {
    this.metrics = requireNonNull(metrics, "metrics");
  }

  /** The totals now; zeros when the endpoint does not answer (the figures then say so by being 0). */
  Totals now() throws InterruptedException {
    final String text;
    try {
      final HttpResponse<String> response = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5))
          .build(), HttpResponse.BodyHandlers.ofString());
      text = response.statusCode() == 200 ? response.body() : "";
    } catch (final IOException e) {
      return new Totals(0, 0, 0, 0);
    }
    return new Totals(value(text, "zerolayer_router_transaction_commit_seconds_count"),
        value(text, "zerolayer_router_transaction_records_sum"),
        value(text, "zerolayer_router_transaction_route_seconds_sum"),
        value(text, "zerolayer_router_transaction_commit_seconds_sum"));
  }

  /** The sum of every series of a sample name in Prometheus text (one per router here). */
  static double value(final String prometheusText, final String name) {
    double sum = 0;
    for (final String line : prometheusText.split("\n")) {
      if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return sum;
  }
}
