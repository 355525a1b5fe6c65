package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A task's instance statuses, decoded, in front of their store: read once when the task's
 * processor is initialised (after its store is restored), then written through. Every sample
 * reads its instance's status and every emission reads them all; decoding them from the store
 * each time cost more than the scoring itself. The store (and its changelog) stays the source
 * for restores and queries, and is only written through this.
 */
final class InstanceStatuses {

  private final KeyValueStore<String, InstanceStatus> store;
  /** In key order, as the store iterates. */
  private final TreeMap<String, InstanceStatus> statuses = new TreeMap<>();

  InstanceStatuses(final KeyValueStore<String, InstanceStatus> store) {
    this.store = requireNonNull(store, "store");
    try (KeyValueIterator<String, InstanceStatus> all = store.all()) {
      all.forEachRemaining(entry -> statuses.put(entry.key, entry.value));
    }
  }

  /** The status of an instance, null for one not known; not to be changed. */
  InstanceStatus get(final String instanceId) {
    return statuses.get(instanceId);
  }

  void put(final String instanceId, final InstanceStatus status) {
    store.put(instanceId, status);
    statuses.put(instanceId, status);
  }

  void delete(final String instanceId) {
    store.delete(instanceId);
    statuses.remove(instanceId);
  }

  /** Every instance's status now, in key order: a copy, so statuses may be changed while it is walked. */
  List<Map.Entry<String, InstanceStatus>> all() {
    final List<Map.Entry<String, InstanceStatus>> all = new ArrayList<>(statuses.size());
    statuses.forEach((id, status) -> all.add(Map.entry(id, status)));
    return all;
  }
}
