package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import com.tdunning.math.stats.MergingDigest;
import com.tdunning.math.stats.TDigest;
import io.zerolayer.contract.avro.TelemetryHistory;
import io.zerolayer.contract.avro.TelemetrySlice;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Per-instance windowed statistics in two RocksDB window stores. Short windows (size S, advancing
 * A) are kept as slices of length A holding the raw samples, so a sample is written once and a
 * window's exact mean, max and percentile come from its S/A slices. A history window, once the
 * instance's samples have moved past it, is folded from its slices into sums, maxes and a
 * t-digest per metric, once; the open history window is answered from its slices, exactly.
 * The slices are therefore kept at least one history window and one advance long.
 */
public final class TelemetryWindows {

  static final double DIGEST_COMPRESSION = 50;

  private final WindowStore<String, TelemetrySlice> slices;
  private final RecentSlices recent;
  private final WindowStore<String, TelemetryHistory> history;
  private final long sizeMs;
  private final long advanceMs;
  private final long historyMs;

  public TelemetryWindows(final WindowStore<String, TelemetrySlice> slices,
      final WindowStore<String, TelemetryHistory> history, final Duration size, final Duration advance,
      final Duration historyWindow) {
    this.slices = requireNonNull(slices, "slices");
    this.history = requireNonNull(history, "history");
    this.sizeMs = size.toMillis();
    this.advanceMs = advance.toMillis();
    this.historyMs = historyWindow.toMillis();
    this.recent = new RecentSlices(slices, sizeMs);
  }

  /**
   * Adds one sample's metrics.
   *
   * @param timeMs when the sample was taken
   * @param previousMs when the instance's previous sample was taken, or -1 for none
   */
  public void add(final String instanceId, final double[] values, final long timeMs, final long previousMs) {
    recent.append(instanceId, start(timeMs, advanceMs), values);
    if (previousMs >= 0 && start(previousMs, historyMs) < start(timeMs, historyMs)) {
      final long closed = start(previousMs, historyMs);
      final List<double[]> samples = samples(instanceId, closed, closed + historyMs - 1);
      if (!samples.isEmpty()) {
        history.put(instanceId, fold(samples), closed);
      }
    }
  }

  /**
   * Folds the history window of an instance's latest sample once it has closed on the wall clock,
   * for an instance that went silent (its next sample would otherwise have folded it).
   */
  public void foldSilent(final String instanceId, final long latestSampleMs, final long nowMs) {
    final long window = start(latestSampleMs, historyMs);
    if (window + historyMs <= nowMs && history.fetch(instanceId, window) == null) {
      final List<double[]> samples = samples(instanceId, window, window + historyMs - 1);
      if (!samples.isEmpty()) {
        history.put(instanceId, fold(samples), window);
      }
    }
  }

  /** The history windows that start in {@code [fromMs, toMs]}, the open one computed from its slices. */
  public static List<WindowStats> history(final ReadOnlyWindowStore<String, TelemetryHistory> closed,
      final ReadOnlyWindowStore<String, TelemetrySlice> slices, final String instanceId, final long fromMs,
      final long toMs, final long historyMs) {
    final TreeMap<Long, WindowStats> windows = new TreeMap<>();
    try (WindowStoreIterator<TelemetryHistory> it =
        closed.fetch(instanceId, Instant.ofEpochMilli(fromMs), Instant.ofEpochMilli(toMs))) {
      it.forEachRemaining(entry -> windows.put(entry.key, stats(entry.key, entry.key + historyMs, entry.value)));
    }
    for (long start = start(fromMs, historyMs); start <= toMs; start += historyMs) {
      if (start >= fromMs && !windows.containsKey(start)) {
        final List<double[]> samples = new ArrayList<>();
        try (WindowStoreIterator<TelemetrySlice> it = slices.fetch(instanceId, Instant.ofEpochMilli(start),
            Instant.ofEpochMilli(start + historyMs - 1))) {
          it.forEachRemaining(entry -> samples.addAll(split(entry.value)));
        }
        if (!samples.isEmpty()) {
          windows.put(start, WindowStats.of(start, start + historyMs, samples));
        }
      }
    }
    return List.copyOf(windows.values());
  }

  /** The short window that ends with the slice holding {@code timeMs}. */
  public WindowStats current(final String instanceId, final long timeMs) {
    final long lastSlice = start(timeMs, advanceMs);
    final long from = lastSlice - sizeMs + advanceMs;
    final List<double[]> samples = new ArrayList<>();
    for (long slice = from; slice <= lastSlice; slice += advanceMs) {
      samples.addAll(recent.samples(instanceId, slice));
    }
    return WindowStats.of(from, lastSlice + advanceMs, samples);
  }

  /** Drops what is kept in memory of an instance the heatmap forgot; the stores expire it. */
  public void forget(final String instanceId) {
    recent.forget(instanceId);
  }

  private List<double[]> samples(final String instanceId, final long fromMs, final long toMs) {
    final List<double[]> samples = new ArrayList<>();
    try (WindowStoreIterator<TelemetrySlice> it = slices.fetch(instanceId, fromMs, toMs)) {
      it.forEachRemaining(entry -> samples.addAll(split(entry.value)));
    }
    return samples;
  }

  /** The raw samples of a slice, each a {@link Metric}-ordered array. */
  public static List<double[]> split(final TelemetrySlice slice) {
    final List<double[]> samples = new ArrayList<>(slice.getSamples());
    final List<Double> values = slice.getValues();
    for (int s = 0; s < slice.getSamples(); s++) {
      final double[] sample = new double[Metric.COUNT];
      for (int m = 0; m < Metric.COUNT; m++) {
        sample[m] = values.get(s * Metric.COUNT + m);
      }
      samples.add(sample);
    }
    return samples;
  }

  /** The statistics of a history window. */
  public static WindowStats stats(final long startMs, final long endMs, final TelemetryHistory window) {
    final int n = Metric.COUNT;
    final double[] means = new double[n];
    final double[] maxes = new double[n];
    final double[] p95s = new double[n];
    for (int m = 0; m < n; m++) {
      means[m] = window.getSums().get(m) / Math.max(1, window.getSamples());
      maxes[m] = window.getMaxes().get(m);
      p95s[m] = MergingDigest.fromBytes(window.getDigests().get(m).duplicate()).quantile(WindowStats.PERCENTILE);
    }
    return new WindowStats(startMs, endMs, window.getSamples(), means, maxes, p95s);
  }

  private static TelemetryHistory fold(final List<double[]> samples) {
    final List<Double> sums = new ArrayList<>(Metric.COUNT);
    final List<Double> maxes = new ArrayList<>(Metric.COUNT);
    final List<ByteBuffer> digests = new ArrayList<>(Metric.COUNT);
    for (int m = 0; m < Metric.COUNT; m++) {
      final TDigest digest = new MergingDigest(DIGEST_COMPRESSION);
      double sum = 0;
      double max = Double.NEGATIVE_INFINITY;
      for (final double[] values : samples) {
        sum += values[m];
        max = Math.max(max, values[m]);
        digest.add(values[m]);
      }
      sums.add(sum);
      maxes.add(max);
      final ByteBuffer bytes = ByteBuffer.allocate(digest.smallByteSize());
      digest.asSmallBytes(bytes);
      bytes.flip();
      digests.add(bytes);
    }
    return new TelemetryHistory((long) samples.size(), sums, maxes, digests);
  }

  private static long start(final long timeMs, final long sizeMs) {
    return timeMs - Math.floorMod(timeMs, sizeMs);
  }
}
