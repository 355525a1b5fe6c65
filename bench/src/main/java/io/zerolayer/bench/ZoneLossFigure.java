package io.zerolayer.bench;

import io.zerolayer.fleet.fault.FaultKind;
import java.util.List;
import java.util.Set;

/**
 * A zone lost 15 % of its packets: the share of the zone's traffic the router moved elsewhere
 * while it could. The zone's share of the dispatches decided while the loss lasted and an
 * instance of another zone had room ({@link Headroom}) is set against its share of all
 * dispatches over an equally long stretch just before (from the start of the load at the
 * earliest): 1 - during / before. Moving nothing gives 0, moving everything 1. The text also
 * gives the figure over every dispatch of the loss, room elsewhere or not.
 */
final class ZoneLossFigure {

  private ZoneLossFigure() {
  }

  static Figure of(final PolicyRun run) {
    return FaultWindow.first(run, FaultKind.ZONE_LOSS, Set.of(FaultKind.ZONE_RESTORE))
        .map(window -> of(run, window))
        .orElseGet(() -> Figure.na("no zone-loss fault"));
  }

  private static Figure of(final PolicyRun run, final FaultWindow window) {
    final Set<String> zone = Set.copyOf(window.instanceIds());
    final long beforeFrom = Math.max(run.loadStartMs(), window.startMs() - window.lengthMs());
    final double before = share(within(run.dispatches(), beforeFrom, window.startMs()), zone);
    final List<Dispatch> during = within(run.dispatches(), window.startMs(), window.endMs());
    final List<Dispatch> withRoom = during.stream().filter(d -> run.roomOutside(zone, d.atMs())).toList();
    if (Double.isNaN(before) || before == 0.0) {
      return Figure.na("no dispatch to " + window.fault().fault().target() + " before the loss");
    }
    if (during.isEmpty()) {
      return Figure.na("no dispatch at all during the loss");
    }
    final double duringShare = share(during, zone);
    final String overAll = Figure.format("%.1f %% over all %d dispatches of the loss (zone's share %.1f %% -> %.1f %%)",
        100 * (1.0 - duringShare / before), during.size(), 100 * before, 100 * duringShare);
    if (withRoom.isEmpty()) {
      return Figure.na("no other zone had room while the zone lost packets; " + overAll);
    }
    final double withRoomShare = share(withRoom, zone);
    final double moved = 1.0 - withRoomShare / before;
    return Figure.of(moved, Figure.format("%.1f %% of %d dispatches with room elsewhere (zone's share -> %.1f %%); %s",
        100 * moved, withRoom.size(), 100 * withRoomShare, overAll));
  }

  private static List<Dispatch> within(final List<Dispatch> dispatches, final long fromMs, final long toMs) {
    return dispatches.stream().filter(d -> d.atMs() >= fromMs && d.atMs() < toMs).toList();
  }

  /** The zone's share of the dispatches; NaN when there are none. */
  private static double share(final List<Dispatch> dispatches, final Set<String> zone) {
    if (dispatches.isEmpty()) {
      return Double.NaN;
    }
    return (double) dispatches.stream().filter(d -> zone.contains(d.instanceId())).count() / dispatches.size();
  }
}
