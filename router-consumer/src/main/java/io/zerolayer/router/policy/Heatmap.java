package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * An immutable snapshot of the heatmap: the latest row of every instance, and what this router
 * saw itself that the rows may not show yet.
 *
 * @param rows rows by instance id
 * @param version increases with every update the view applied
 * @param cutAway instances this router has just cut several sequences away from: their rows may
 *     still look fine (a stalled engine reports as usual until its counters show it), so a
 *     latency-aware policy keeps new work off them while it can
 */
public record Heatmap(Map<String, InstanceScore> rows, long version, Set<String> cutAway) {

  public Heatmap {
    rows = Map.copyOf(rows);
    cutAway = Set.copyOf(cutAway);
  }

  /** A snapshot of the rows alone, with nothing cut away. */
  public Heatmap(final Map<String, InstanceScore> rows, final long version) {
    this(rows, version, Set.of());
  }

  /** The empty heatmap, before anything was read. */
  public static Heatmap empty() {
    return new Heatmap(Map.of(), 0);
  }

  /** The same rows with these instances marked as just cut away from. */
  public Heatmap withCutAway(final Set<String> instanceIds) {
    return new Heatmap(rows, version, instanceIds);
  }

  /** The row of one instance, or null. */
  public InstanceScore row(final String instanceId) {
    return rows.get(instanceId);
  }

  public Collection<InstanceScore> all() {
    return rows.values();
  }
}
