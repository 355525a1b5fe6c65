package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.Collection;
import java.util.Map;

/**
 * An immutable snapshot of the heatmap: the latest row of every instance.
 *
 * @param rows rows by instance id
 * @param version increases with every update the view applied
 */
public record Heatmap(Map<String, InstanceScore> rows, long version) {

  public Heatmap {
    rows = Map.copyOf(rows);
  }

  /** The empty heatmap, before anything was read. */
  public static Heatmap empty() {
    return new Heatmap(Map.of(), 0);
  }

  /** The row of one instance, or null. */
  public InstanceScore row(final String instanceId) {
    return rows.get(instanceId);
  }

  public Collection<InstanceScore> all() {
    return rows.values();
  }
}
