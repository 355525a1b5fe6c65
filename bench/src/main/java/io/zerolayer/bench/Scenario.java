package io.zerolayer.bench;

import io.zerolayer.fleet.fault.FaultKind;
import io.zerolayer.fleet.fault.FaultSchedule;
import io.zerolayer.fleet.fault.ScheduledFault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Preset fault schedules, timed within the measured part of a load (after the warm-up). Each
 * single scenario injects its fault a fifth of the way in and ends it (where it has an end) at
 * three fifths, except a zone loss, which lasts from a tenth to nine tenths: a real one lasts
 * minutes, so the seconds before it shows weigh less. {@code all} gives each of the four
 * faults its own quarter, in the same way.
 */
public enum Scenario {

  STEADY("steady"),
  OOM("oom"),
  ZONE_LOSS("zone-loss"),
  COLD_START("cold-start"),
  STALLS("stalls"),
  ALL("all");

  private static final Duration STALL_LENGTH = Duration.ofSeconds(4);

  private final String spelling;

  Scenario(final String spelling) {
    this.spelling = spelling;
  }

  /** The scenario spelled {@code name}, e.g. {@code zone-loss}. */
  public static Optional<Scenario> named(final String name) {
    return Arrays.stream(values()).filter(s -> s.spelling.equals(name)).findFirst();
  }

  /** Every spelling, comma-separated. */
  public static String spellings() {
    return Arrays.stream(values()).map(s -> s.spelling).collect(Collectors.joining(", "));
  }

  /**
   * The schedule, offsets from the load's start.
   *
   * @throws IllegalArgumentException for a zone loss in a fleet of one zone
   */
  public FaultSchedule schedule(final FleetShape fleet, final Duration warmup, final Duration length) {
    final Duration measured = length.minus(warmup);
    final List<ScheduledFault> entries = new ArrayList<>();
    switch (this) {
      case STEADY -> { }
      case OOM -> oom(entries, fleet, warmup, measured);
      case ZONE_LOSS -> zoneLoss(entries, fleet, warmup, measured);
      case COLD_START -> coldStart(entries, fleet, warmup, measured);
      case STALLS -> stalls(entries, fleet, warmup, measured);
      case ALL -> {
        final Duration quarter = measured.dividedBy(4);
        oom(entries, fleet, warmup, quarter);
        zoneLoss(entries, fleet, warmup.plus(quarter), quarter);
        coldStart(entries, fleet, warmup.plus(quarter.multipliedBy(2)), quarter);
        stalls(entries, fleet, warmup.plus(quarter.multipliedBy(3)), quarter);
      }
      default -> throw new IllegalStateException("unreachable: " + this);
    }
    return FaultSchedule.of(entries);
  }

  private static void oom(final List<ScheduledFault> entries, final FleetShape fleet, final Duration from,
      final Duration slot) {
    entries.add(new ScheduledFault(FaultKind.OOM, at(from, slot, 0.2), fleet.instance(1)));
    entries.add(new ScheduledFault(FaultKind.RECOVER, at(from, slot, 0.6), fleet.instance(1)));
  }

  private static void zoneLoss(final List<ScheduledFault> entries, final FleetShape fleet, final Duration from,
      final Duration slot) {
    if (fleet.zones() < 2) {
      throw new IllegalArgumentException("A zone loss needs a fleet of 2 zones or more; this one has 1");
    }
    final String zone = fleet.zoneNames().get(fleet.zones() - 1);
    entries.add(new ScheduledFault(FaultKind.ZONE_LOSS, at(from, slot, 0.1), zone));
    entries.add(new ScheduledFault(FaultKind.ZONE_RESTORE, at(from, slot, 0.9), zone));
  }

  private static void coldStart(final List<ScheduledFault> entries, final FleetShape fleet, final Duration from,
      final Duration slot) {
    entries.add(new ScheduledFault(FaultKind.COLD, at(from, slot, 0.2), fleet.instance(-1)));
  }

  /** Two stalls on different instances (one when the fleet has fewer than 3), each lifted after a few seconds. */
  private static void stalls(final List<ScheduledFault> entries, final FleetShape fleet, final Duration from,
      final Duration slot) {
    final Duration length = STALL_LENGTH.compareTo(slot.dividedBy(5)) < 0 ? STALL_LENGTH : slot.dividedBy(5);
    final List<String> targets = fleet.instances() < 3 ? List.of(fleet.instance(0))
        : List.of(fleet.instance(0), fleet.instance(2));
    for (int i = 0; i < targets.size(); i++) {
      final Duration at = at(from, slot, 0.2 + 0.35 * i);
      entries.add(new ScheduledFault(FaultKind.STALL, at, targets.get(i)));
      entries.add(new ScheduledFault(FaultKind.RESUME, at.plus(length), targets.get(i)));
    }
  }

  private static Duration at(final Duration from, final Duration slot, final double fraction) {
    return from.plusMillis(Math.round(slot.toMillis() * fraction));
  }

  @Override
  public String toString() {
    return spelling;
  }
}
