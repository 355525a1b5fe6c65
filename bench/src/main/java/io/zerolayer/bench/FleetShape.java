package io.zerolayer.bench;

import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The simulated fleet every policy gets afresh: instances {@code gpu-0..} spread round-robin over
 * zones {@code zone-a..}, and those that start cold.
 *
 * @param instances how many instances
 * @param zones how many zones
 * @param coldIds the instances that start cold (loading weights)
 */
public record FleetShape(int instances, int zones, Set<String> coldIds) {

  static final String ID_PREFIX = "gpu-";

  public FleetShape {
    if (instances < 1 || zones < 1 || zones > 26 || zones > instances) {
      throw new IllegalArgumentException("Need 1 <= zones <= instances and at most 26 zones, got " + instances
          + " instances over " + zones + " zones");
    }
    coldIds = Set.copyOf(coldIds);
    // The fields are not assigned yet: a compact constructor assigns them when it ends.
    final List<String> ids = ids(instances);
    if (!ids.containsAll(coldIds)) {
      throw new IllegalArgumentException("Cold instances " + coldIds + " are not all in the fleet " + ids);
    }
  }

  /** The instance ids, {@code gpu-0} first. */
  public List<String> instanceIds() {
    return ids(instances);
  }

  private static List<String> ids(final int count) {
    return IntStream.range(0, count).mapToObj(i -> ID_PREFIX + i).toList();
  }

  /** The zone names, {@code zone-a} first. */
  public List<String> zoneNames() {
    return IntStream.range(0, zones).mapToObj(i -> "zone-" + (char) ('a' + i)).toList();
  }

  /** The {@code index}-th instance id, counted from the end when negative. */
  String instance(final int index) {
    return ID_PREFIX + Math.floorMod(index, instances);
  }

  @Override
  public String toString() {
    return instances + " simulated instances over " + zoneNames() + (coldIds.isEmpty() ? "" : ", cold at start: "
        + coldIds.stream().sorted().toList());
  }
}
