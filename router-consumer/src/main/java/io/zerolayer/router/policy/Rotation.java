package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A cycle over the instances the heatmap knows, in instance-id order, that starts after the
 * instance that led the previous ranking. Keyed by id rather than by position, so an instance
 * that joins or leaves shifts no other instance's turn. Not thread-safe.
 */
final class Rotation {

  private String lastLeader;

  /** Every row, the one after the previous leader first; empty when the heatmap is. */
  List<InstanceScore> order(final Heatmap heatmap) {
    final TreeMap<String, InstanceScore> byId = new TreeMap<>();
    for (final InstanceScore row : heatmap.all()) {
      byId.put(row.getInstanceId(), row);
    }
    if (lastLeader == null) {
      return new ArrayList<>(byId.values());
    }
    final List<InstanceScore> order = new ArrayList<>(byId.tailMap(lastLeader, false).values());
    order.addAll(byId.headMap(lastLeader, true).values());
    return order;
  }

  /** Notes the instance that leads this ranking, so that the next one starts after it. */
  void led(final String instanceId) {
    lastLeader = instanceId;
  }
}
