package io.zerolayer.telemetry.internal;

import static io.zerolayer.contract.telemetry.RunningRequestsPage.METRIC;
import static io.zerolayer.contract.telemetry.RunningRequestsPage.PATH;

import io.zerolayer.telemetry.prometheus.Sample;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.util.ArrayList;
import java.util.List;

/** Reads a worker's page of running requests ({@link io.zerolayer.contract.telemetry.RunningRequestsPage}). */
final class RunningRequestsReader {

  private RunningRequestsReader() {
  }

  /**
   * What each running request may still generate, in the page's order; empty when nothing runs.
   *
   * @throws IllegalArgumentException when a sample is not a whole number of tokens, 0 or more
   */
  static List<Integer> tokensToLimit(final Scrape page) {
    final List<Integer> tokens = new ArrayList<>();
    for (final Sample sample : page.series(METRIC)) {
      final double value = sample.value();
      if (!(value >= 0 && value <= Integer.MAX_VALUE && value == Math.rint(value))) {
        throw new IllegalArgumentException("the worker's page gives " + METRIC + " " + sample.labels() + " = " + value
            + ", not a whole number of tokens, 0 or more: the page comes from a Zerolayer worker's "
            + PATH + "; check the target's " + TargetEntryReader.WORKER_URL);
      }
      tokens.add((int) value);
    }
    return tokens;
  }
}
