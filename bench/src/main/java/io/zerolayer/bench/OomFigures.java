package io.zerolayer.bench;

import io.zerolayer.fleet.fault.FaultKind;
import io.zerolayer.fleet.load.RequestOutcome;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A GPU's KV cache ran out of memory: how long the router went on sending it new work, and how
 * many of the requests it sent there failed for the client.
 *
 * @param trafficOffMs from the fault to the last dispatch to the instance while it was out of
 *     memory (0 when none came after the fault); infinite when dispatches went on to the end
 * @param failedRequests requests dispatched there while it was out of memory that ended in an error
 */
record OomFigures(Figure trafficOffMs, Figure failedRequests) {

  /** Traffic counts as never off when a dispatch came in the last quarter (at most 2 s) of the episode. */
  static final long STILL_SENDING_MS = 2_000;

  static OomFigures of(final PolicyRun run) {
    return FaultWindow.first(run, FaultKind.OOM, Set.of(FaultKind.RECOVER, FaultKind.COLD))
        .map(window -> of(run, window))
        .orElseGet(() -> new OomFigures(Figure.na("no oom fault"), Figure.na("no oom fault")));
  }

  private static OomFigures of(final PolicyRun run, final FaultWindow window) {
    final String instance = window.instanceIds().get(0);
    final List<Dispatch> after = run.dispatches().stream()
        .filter(d -> d.instanceId().equals(instance) && d.atMs() >= window.startMs() && d.atMs() < window.endMs())
        .toList();
    final Map<String, RequestOutcome> outcomes = run.bySequence();
    final long failed = after.stream().map(Dispatch::sequenceId).distinct()
        .filter(id -> outcomes.containsKey(id) && outcomes.get(id).isError()).count();
    final Figure failedFigure = Figure.of(failed, Figure.format("%d of %d sent there", failed, after.size()));
    if (after.isEmpty()) {
      return new OomFigures(Figure.of(0, "0 (none sent after the fault)"), failedFigure);
    }
    final long last = after.stream().mapToLong(Dispatch::atMs).max().orElseThrow();
    if (window.endMs() - last < Math.min(STILL_SENDING_MS, window.lengthMs() / 4)) {
      return new OomFigures(Figure.never(Figure.format("never: %d sent until %s (%.1f s)", after.size(),
          window.endText(), window.lengthMs() / 1000.0)), failedFigure);
    }
    return new OomFigures(Figure.of(last - window.startMs(), Figure.format("%,d (%d sent after the fault)",
        last - window.startMs(), after.size())), failedFigure);
  }
}
