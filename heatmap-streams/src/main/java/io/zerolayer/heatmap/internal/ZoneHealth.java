package io.zerolayer.heatmap.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.ZoneState;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Zone health: when most of a zone's reporting instances are network-degraded at once, the zone
 * as a whole is penalised. Plain Java over heatmap rows.
 */
public final class ZoneHealth {

  private ZoneHealth() {
  }

  /**
   * One zone's health.
   *
   * @param zone the zone
   * @param members instances of the zone that report (neither {@code SUSPECT} nor {@code EJECTED})
   * @param networkDegraded of them, those network-degraded
   * @param state {@code PENALISED} when more than half of the members are network-degraded
   * @param reason why, for a person
   */
  public record Verdict(String zone, int members, int networkDegraded, ZoneState state, String reason) {

    public boolean penalised() {
      return state == ZoneState.PENALISED;
    }
  }

  /** The health of every zone the rows mention, by zone. */
  public static Map<String, Verdict> assess(final Collection<InstanceScore> rows) {
    final Map<String, int[]> counts = new TreeMap<>();
    for (final InstanceScore row : rows) {
      final int[] zone = counts.computeIfAbsent(row.getZone(), z -> new int[2]);
      if (row.getState() != InstanceState.SUSPECT && row.getState() != InstanceState.EJECTED) {
        zone[0]++;
        if (row.getNetworkDegraded()) {
          zone[1]++;
        }
      }
    }
    final Map<String, Verdict> verdicts = new TreeMap<>();
    counts.forEach((zone, count) -> verdicts.put(zone, verdict(zone, count[0], count[1])));
    return verdicts;
  }

  static Verdict verdict(final String zone, final int members, final int degraded) {
    final boolean penalised = degraded > 0 && 2 * degraded > members;
    final String reason = penalised
        ? degraded + " of " + members + " instances network-degraded: zone penalised"
        : degraded + " of " + members + " instances network-degraded";
    return new Verdict(zone, members, degraded, penalised ? ZoneState.PENALISED : ZoneState.HEALTHY, reason);
  }
}
