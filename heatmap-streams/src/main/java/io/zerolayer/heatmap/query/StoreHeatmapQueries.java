package io.zerolayer.heatmap.query;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceStatus;
import io.zerolayer.contract.avro.TelemetryHistory;
import io.zerolayer.contract.avro.TelemetrySlice;
import io.zerolayer.heatmap.HeatmapTopology;
import io.zerolayer.heatmap.internal.TelemetryWindows;
import io.zerolayer.heatmap.internal.WindowStats;
import io.zerolayer.heatmap.internal.ZoneHealth;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/** {@link HeatmapQueries} over the running app's stores. */
public final class StoreHeatmapQueries implements HeatmapQueries {

  private final KafkaStreams streams;
  private final HostInfo self;
  private final Duration windowSize;
  private final Duration windowAdvance;
  private final Duration historyWindow;

  /**
   * @param self this instance's {@code application.server}
   */
  public StoreHeatmapQueries(final KafkaStreams streams, final HostInfo self, final Duration windowSize,
      final Duration windowAdvance, final Duration historyWindow) {
    this.streams = requireNonNull(streams, "streams");
    this.self = requireNonNull(self, "self");
    this.windowSize = windowSize;
    this.windowAdvance = windowAdvance;
    this.historyWindow = historyWindow;
  }

  @Override
  public Lookup<List<InstanceView>> heatmap() {
    return global(rows -> rows.stream().map(InstanceView::of).toList());
  }

  @Override
  public Lookup<List<ZoneView>> zones() {
    return global(rows -> ZoneHealth.assess(rows).values().stream().map(ZoneView::of).toList());
  }

  @Override
  public Lookup<InstanceView> instance(final String instanceId) {
    return owned(HeatmapTopology.INSTANCE_STATE_STORE, instanceId, partition -> {
      final InstanceStatus status = store(HeatmapTopology.INSTANCE_STATE_STORE,
          QueryableStoreTypes.<String, InstanceStatus>keyValueStore(), partition).get(instanceId);
      return status == null || status.getRow() == null ? new Missing<>() : new Found<>(InstanceView.of(status));
    });
  }

  @Override
  public Lookup<List<WindowView>> history(final String instanceId, final long fromMs, final long toMs,
      final boolean shortWindows) {
    final String name = shortWindows ? HeatmapTopology.TELEMETRY_WINDOW_STORE : HeatmapTopology.TELEMETRY_HISTORY_STORE;
    return owned(name, instanceId, partition -> {
      final ReadOnlyWindowStore<String, TelemetrySlice> slices = store(HeatmapTopology.TELEMETRY_WINDOW_STORE,
          QueryableStoreTypes.<String, TelemetrySlice>windowStore(), partition);
      return new Found<>(shortWindows ? shortWindows(slices, instanceId, fromMs, toMs)
          : TelemetryWindows.history(store(HeatmapTopology.TELEMETRY_HISTORY_STORE,
              QueryableStoreTypes.<String, TelemetryHistory>windowStore(), partition), slices, instanceId, fromMs,
              toMs, historyWindow.toMillis()).stream().map(WindowView::of).toList());
    });
  }

  private List<WindowView> shortWindows(final ReadOnlyWindowStore<String, TelemetrySlice> store,
      final String instanceId, final long fromMs, final long toMs) {
    final long advance = windowAdvance.toMillis();
    final long size = windowSize.toMillis();
    final TreeMap<Long, List<double[]>> slices = new TreeMap<>();
    try (WindowStoreIterator<TelemetrySlice> it = store.fetch(instanceId, Instant.ofEpochMilli(fromMs),
        Instant.ofEpochMilli(toMs + size))) {
      it.forEachRemaining(entry -> slices.put(entry.key, TelemetryWindows.split(entry.value)));
    }
    final List<WindowView> windows = new ArrayList<>();
    for (long start = fromMs + Math.floorMod(-fromMs, advance); start <= toMs; start += advance) {
      final List<double[]> samples = new ArrayList<>();
      slices.subMap(start, start + size).values().forEach(samples::addAll);
      if (!samples.isEmpty()) {
        windows.add(WindowView.of(WindowStats.of(start, start + size, samples)));
      }
    }
    return windows;
  }

  private <T> Lookup<T> global(final Function<List<InstanceScore>, T> view) {
    try {
      final List<InstanceScore> rows = new ArrayList<>();
      try (KeyValueIterator<String, InstanceScore> it = store(HeatmapTopology.INSTANCE_SCORES_GLOBAL_STORE,
          QueryableStoreTypes.<String, InstanceScore>keyValueStore(), null).all()) {
        it.forEachRemaining((KeyValue<String, InstanceScore> entry) -> rows.add(entry.value));
      }
      return new Found<>(view.apply(rows));
    } catch (final InvalidStateStoreException e) {
      return new Unavailable<>("the heatmap is starting or restoring: " + e.getMessage());
    }
  }

  private <T> Lookup<T> owned(final String storeName, final String key, final Function<Integer, Lookup<T>> read) {
    final KeyQueryMetadata where;
    try {
      where = streams.queryMetadataForKey(storeName, key, new StringSerializer());
    } catch (final IllegalStateException e) {
      return new Unavailable<>("the app is not running yet: " + e.getMessage());
    }
    if (where == null || KeyQueryMetadata.NOT_AVAILABLE.equals(where)) {
      return new Unavailable<>("the store is being assigned");
    }
    if (!self.equals(where.activeHost())) {
      return new Elsewhere<>(where.activeHost().host(), where.activeHost().port());
    }
    try {
      return read.apply(where.partition());
    } catch (final InvalidStateStoreException e) {
      return new Unavailable<>("the store is migrating or restoring: " + e.getMessage());
    }
  }

  private <S> S store(final String name, final QueryableStoreType<S> type, final Integer partition) {
    final StoreQueryParameters<S> parameters = StoreQueryParameters.fromNameAndType(name, type);
    return streams.store(partition == null ? parameters : parameters.withPartition(partition));
  }
}
