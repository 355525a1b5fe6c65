package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.TelemetrySlice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The latest short window's slices of each instance, decoded, in front of the slices store. Every
 * sample reads the whole short window back; decoding its slices from the store each time was the
 * heatmap's largest cost. A slice is read from the store once, then kept here and written through,
 * so the store (and its changelog) stays the source for restores and queries. One per task, made
 * when the task's processor is initialised: the store is only written through it.
 */
final class RecentSlices {

  private final WindowStore<String, TelemetrySlice> store;
  private final long keptMs;
  private final Map<String, NavigableMap<Long, List<double[]>>> instances = new HashMap<>();

  /** @param keptMs how far behind an instance's latest slice its slices are kept: the short window's size */
  RecentSlices(final WindowStore<String, TelemetrySlice> store, final long keptMs) {
    this.store = requireNonNull(store, "store");
    this.keptMs = keptMs;
  }

  /** Appends one sample to the slice starting at {@code sliceStartMs} and writes the slice through. */
  void append(final String instanceId, final long sliceStartMs, final double[] values) {
    final NavigableMap<Long, List<double[]>> slices = slices(instanceId);
    final List<double[]> samples = slice(instanceId, slices, sliceStartMs);
    samples.add(values.clone());
    store.put(instanceId, encode(samples), sliceStartMs);
    slices.headMap(slices.lastKey() - keptMs, false).clear();
  }

  /** The samples of the slice starting at {@code sliceStartMs}, empty for none; not to be changed. */
  List<double[]> samples(final String instanceId, final long sliceStartMs) {
    return slice(instanceId, slices(instanceId), sliceStartMs);
  }

  /** Drops an instance the heatmap forgot. */
  void forget(final String instanceId) {
    instances.remove(instanceId);
  }

  private NavigableMap<Long, List<double[]>> slices(final String instanceId) {
    return instances.computeIfAbsent(instanceId, id -> new TreeMap<>());
  }

  private List<double[]> slice(final String instanceId, final NavigableMap<Long, List<double[]>> slices,
      final long sliceStartMs) {
    return slices.computeIfAbsent(sliceStartMs, start -> {
      final TelemetrySlice stored = store.fetch(instanceId, start);
      return stored == null ? new ArrayList<>() : new ArrayList<>(TelemetryWindows.split(stored));
    });
  }

  private static TelemetrySlice encode(final List<double[]> samples) {
    final List<Double> values = new ArrayList<>(samples.size() * Metric.COUNT);
    for (final double[] sample : samples) {
      for (final double value : sample) {
        values.add(value);
      }
    }
    return new TelemetrySlice(samples.size(), values);
  }
}
