package io.zerolayer.telemetry.prometheus;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One classic histogram series: cumulative buckets ending at {@code +Inf}, the sum and the count
 * of its observations.
 *
 * @param labels the series' labels, without {@code le}
 */
public record Histogram(Map<String, String> labels, List<Bucket> buckets, double sum, double count) {

  /** Observations at or below {@code upperBound}, cumulative. */
  public record Bucket(double upperBound, double cumulativeCount) {
  }

  /**
   * @throws IllegalArgumentException when the buckets do not end at {@code +Inf}, are not
   *     ordered and cumulative, or the {@code +Inf} bucket differs from the count
   */
  public Histogram {
    labels = Map.copyOf(requireNonNull(labels, "labels"));
    buckets = List.copyOf(requireNonNull(buckets, "buckets"));
    if (buckets.isEmpty() || buckets.get(buckets.size() - 1).upperBound() != Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("no +Inf bucket");
    }
    for (int i = 1; i < buckets.size(); i++) {
      if (!(buckets.get(i).upperBound() > buckets.get(i - 1).upperBound())) {
        throw new IllegalArgumentException("bucket bounds are not increasing at le=" + buckets.get(i).upperBound());
      }
      if (buckets.get(i).cumulativeCount() < buckets.get(i - 1).cumulativeCount()) {
        throw new IllegalArgumentException("bucket counts decrease at le=" + buckets.get(i).upperBound());
      }
    }
    if (buckets.get(buckets.size() - 1).cumulativeCount() != count) {
      throw new IllegalArgumentException("+Inf bucket " + buckets.get(buckets.size() - 1).cumulativeCount()
          + " differs from count " + count);
    }
  }

  /**
   * The observations made since {@code earlier} was scraped. When the server restarted in
   * between (a count went down) or changed its buckets, all of this histogram's observations are
   * new, as Prometheus' {@code rate()} treats a counter reset.
   */
  public Histogram since(final Histogram earlier) {
    requireNonNull(earlier, "earlier");
    if (!sameBounds(earlier) || count < earlier.count || sum < earlier.sum) {
      return this;
    }
    final List<Bucket> delta = new ArrayList<>(buckets.size());
    for (int i = 0; i < buckets.size(); i++) {
      final double before = earlier.buckets.get(i).cumulativeCount();
      if (buckets.get(i).cumulativeCount() < before) {
        return this;
      }
      delta.add(new Bucket(buckets.get(i).upperBound(), buckets.get(i).cumulativeCount() - before));
    }
    return new Histogram(labels, delta, sum - earlier.sum, count - earlier.count);
  }

  /**
   * Both histograms' observations together, for one server's engines that report apart.
   *
   * @throws IllegalArgumentException when their buckets differ
   */
  public Histogram plus(final Histogram other) {
    requireNonNull(other, "other");
    if (!sameBounds(other)) {
      throw new IllegalArgumentException("histograms with different buckets cannot be added");
    }
    final List<Bucket> total = new ArrayList<>(buckets.size());
    for (int i = 0; i < buckets.size(); i++) {
      total.add(new Bucket(buckets.get(i).upperBound(),
          buckets.get(i).cumulativeCount() + other.buckets.get(i).cumulativeCount()));
    }
    return new Histogram(Map.of(), total, sum + other.sum, count + other.count);
  }

  private boolean sameBounds(final Histogram other) {
    if (other.buckets.size() != buckets.size()) {
      return false;
    }
    for (int i = 0; i < buckets.size(); i++) {
      if (buckets.get(i).upperBound() != other.buckets.get(i).upperBound()) {
        return false;
      }
    }
    return true;
  }
}
