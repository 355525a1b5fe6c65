package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.router.policy.Heatmap;
import java.util.HashMap;
import java.util.Map;

/**
 * Instances whose streams this router saw stall: until the heatmap can tell (a stalled engine's
 * telemetry looks normal for a while), their weight is cut to {@link #WEIGHT_FACTOR} for
 * {@code avoidMs} after the latest stall report, so that policies that read weights send new
 * work elsewhere while any other instance can take it. Moves decided for what was known of the
 * owner already (its heatmap row) are not new evidence and do not count. Used by one router
 * thread only.
 */
public final class StalledInstances {

  static final double WEIGHT_FACTOR = 0.05;

  private final long avoidMs;
  private final Map<String, Long> stalledAtMs = new HashMap<>();

  /** @param avoidMs how long after its latest stall report an instance is avoided */
  public StalledInstances(final long avoidMs) {
    this.avoidMs = avoidMs;
  }

  /** Notes a stream that stalled on an instance. */
  public void record(final String instanceId, final long nowMs) {
    stalledAtMs.merge(instanceId, nowMs, Math::max);
  }

  /** The heatmap with the weight of each recently stalled instance cut. */
  public Heatmap applyTo(final Heatmap heatmap, final long nowMs) {
    stalledAtMs.values().removeIf(atMs -> nowMs - atMs > avoidMs);
    if (stalledAtMs.isEmpty()) {
      return heatmap;
    }
    final Map<String, InstanceScore> rows = new HashMap<>(heatmap.rows());
    stalledAtMs.forEach((id, atMs) -> {
      final InstanceScore row = rows.get(id);
      if (row != null) {
        rows.put(id, InstanceScore.newBuilder(row).setWeight(row.getWeight() * WEIGHT_FACTOR)
            .setReason(row.getReason() + "; a stream stalled on it " + (nowMs - atMs) + " ms ago").build());
      }
    });
    return new Heatmap(rows, heatmap.version());
  }
}
