package io.zerolayer.bench;

import java.util.List;

/** The runs of two apps on the same backlog, compared by their median rates. */
record ThroughputComparison(List<ThroughputRun> runs) {

  ThroughputComparison {
    runs = List.copyOf(runs);
  }

  /** The median records/s of an app's runs (the mean of the middle two for an even count). */
  double medianRate(final String app) {
    final double[] rates = runs.stream().filter(r -> r.app().equals(app))
        .mapToDouble(ThroughputRun::recordsPerSecond).sorted().toArray();
    if (rates.length == 0) {
      throw new IllegalArgumentException("no runs of " + app + " among " + runs);
    }
    final int middle = rates.length / 2;
    return rates.length % 2 == 1 ? rates[middle] : (rates[middle - 1] + rates[middle]) / 2;
  }

  /** {@code app}'s median rate over {@code baseline}'s. */
  double ratio(final String app, final String baseline) {
    return medianRate(app) / medianRate(baseline);
  }
}
