package io.zerolayer.bench;

import io.zerolayer.fleet.fault.FaultKind;
import java.util.List;
import java.util.Set;

/**
 * A zone lost 15 % of its packets: the share of the zone's traffic the router moved elsewhere.
 * The zone's share of all dispatches while the loss lasted is set against its share over an
 * equally long stretch just before (from the start of the load at the earliest): 1 - during /
 * before. Moving nothing gives 0, moving everything 1.
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
    final double before = share(run.dispatches(), zone, beforeFrom, window.startMs());
    final double during = share(run.dispatches(), zone, window.startMs(), window.endMs());
    if (Double.isNaN(before) || before == 0.0) {
      return Figure.na("no dispatch to " + window.fault().fault().target() + " before the loss");
    }
    if (Double.isNaN(during)) {
      return Figure.na("no dispatch at all during the loss");
    }
    final double moved = 1.0 - during / before;
    return Figure.of(moved, Figure.format("%.1f %% (zone's share %.1f %% -> %.1f %%)", 100 * moved, 100 * before,
        100 * during));
  }

  /** The zone's share of the dispatches in [fromMs, toMs); NaN when there were none. */
  private static double share(final List<Dispatch> dispatches, final Set<String> zone, final long fromMs,
      final long toMs) {
    final List<Dispatch> in = dispatches.stream().filter(d -> d.atMs() >= fromMs && d.atMs() < toMs).toList();
    if (in.isEmpty()) {
      return Double.NaN;
    }
    return (double) in.stream().filter(d -> zone.contains(d.instanceId())).count() / in.size();
  }
}
