package io.zerolayer.bench;

import io.zerolayer.fleet.GpuProfile;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The simulated fleet every policy gets afresh: instances {@code gpu-0..} spread round-robin over
 * zones {@code zone-a..}, their instance classes taken in turn, and those that start cold.
 *
 * @param instances how many instances
 * @param zones how many zones
 * @param coldIds the instances that start cold (loading weights)
 * @param classes the instance classes, in turn: {@code gpu-i} is of {@code classes[i % size]}
 */
public record FleetShape(int instances, int zones, Set<String> coldIds, List<GpuProfile> classes) {

  static final String ID_PREFIX = "gpu-";

  public FleetShape {
    if (instances < 1 || zones < 1 || zones > 26 || zones > instances) {
      throw new IllegalArgumentException("Need 1 <= zones <= instances and at most 26 zones, got " + instances
          + " instances over " + zones + " zones");
    }
    coldIds = Set.copyOf(coldIds);
    classes = List.copyOf(classes);
    if (classes.isEmpty()) {
      throw new IllegalArgumentException("Name at least one instance class");
    }
    // The fields are not assigned yet: a compact constructor assigns them when it ends.
    final List<String> ids = ids(instances);
    if (!ids.containsAll(coldIds)) {
      throw new IllegalArgumentException("Cold instances " + coldIds + " are not all in the fleet " + ids);
    }
  }

  /** A fleet of the standard class alone. */
  public FleetShape(final int instances, final int zones, final Set<String> coldIds) {
    this(instances, zones, coldIds, List.of(GpuProfile.standard()));
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
    final String mix = classes.stream().map(GpuProfile::instanceClass).distinct().count() == 1 ? ""
        : " of the classes " + classes.stream().map(GpuProfile::instanceClass).toList() + " in turn";
    return instances + " simulated instances" + mix + " over " + zoneNames() + (coldIds.isEmpty() ? ""
        : ", cold at start: "
        + coldIds.stream().sorted().toList());
  }
}
