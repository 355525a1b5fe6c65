package io.zerolayer.bench;

import java.util.Arrays;
import java.util.List;

/** Nearest-rank percentiles of a sample. */
public final class Percentiles {

  private final long[] sorted;

  public Percentiles(final List<Long> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values to take percentiles of");
    }
    sorted = values.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
  }

  /** The {@code p}-th percentile (0 < p <= 100), nearest rank. */
  public long at(final double p) {
    final int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  public long max() {
    return sorted[sorted.length - 1];
  }

  public int count() {
    return sorted.length;
  }
}
