package io.zerolayer.gateway.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.CompactedView;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** The models the fleet serves, from the heatmap's compacted topic. */
public final class ModelDirectory implements AutoCloseable {

  private final CompactedView<InstanceScore> heatmap;

  public ModelDirectory(final ClusterSettings cluster, final ContractSerdes serdes) {
    heatmap = new CompactedView<>(cluster, cluster.catalogue().name(Topics.INSTANCE_SCORES),
        serdes.value(Topics.INSTANCE_SCORES).deserializer(), "gateway-models");
  }

  /** Models at least one instance serves now (not ejected), sorted. */
  public SortedSet<String> served() {
    final SortedSet<String> models = new TreeSet<>();
    for (final InstanceScore row : heatmap.current().rows().values()) {
      if (row.getState() != InstanceState.EJECTED) {
        models.add(row.getModel());
      }
    }
    return models;
  }

  /** Every model of the heatmap, in any state, sorted. */
  public SortedSet<String> all() {
    final SortedSet<String> models = new TreeSet<>();
    heatmap.current().rows().values().forEach(row -> models.add(row.getModel()));
    return models;
  }

  /** Every instance of the heatmap, in any state. */
  public Set<String> instances() {
    return heatmap.current().rows().keySet();
  }

  /** Whether the heatmap has been read to its end. */
  public boolean isReady() {
    return heatmap.isReady() && !heatmap.failed();
  }

  @Override
  public void close() {
    heatmap.close();
  }
}
