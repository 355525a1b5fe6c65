package io.zerolayer.bench;

import io.zerolayer.fleet.fault.AppliedFault;
import io.zerolayer.fleet.fault.FaultKind;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * How long a fault lasted in a run: from its injection to the first later fault on the same
 * target that ends it, or to the end of the load when none does.
 *
 * @param fault the fault as injected
 * @param startMs when it was injected, epoch milliseconds
 * @param endMs when it ended, epoch milliseconds
 * @param endedBy the fault that ended it, or empty when it lasted until the end of the load
 */
record FaultWindow(AppliedFault fault, long startMs, long endMs, Optional<FaultKind> endedBy) {

  /**
   * The first injected fault of {@code kind} in the run, and how long it lasted.
   *
   * @param endingKinds faults on the same target that end it
   */
  static Optional<FaultWindow> first(final PolicyRun run, final FaultKind kind, final Set<FaultKind> endingKinds) {
    final List<AppliedFault> faults = run.faults();
    for (int i = 0; i < faults.size(); i++) {
      final AppliedFault fault = faults.get(i);
      if (fault.fault().kind() == kind) {
        return Optional.of(window(run, fault, faults.subList(i + 1, faults.size()), endingKinds));
      }
    }
    return Optional.empty();
  }

  private static FaultWindow window(final PolicyRun run, final AppliedFault fault, final List<AppliedFault> later,
      final Set<FaultKind> endingKinds) {
    final long start = fault.appliedAt().toEpochMilli();
    for (final AppliedFault next : later) {
      if (endingKinds.contains(next.fault().kind()) && next.fault().target().equals(fault.fault().target())) {
        return new FaultWindow(fault, start, next.appliedAt().toEpochMilli(), Optional.of(next.fault().kind()));
      }
    }
    return new FaultWindow(fault, start, Math.max(start, run.loadEndMs()), Optional.empty());
  }

  /** The instances the fault hit. */
  List<String> instanceIds() {
    return fault.instanceIds();
  }

  long lengthMs() {
    return endMs - startMs;
  }

  /** What ended it, for the table: "recover", or "the end of the load". */
  String endText() {
    return endedBy.map(FaultKind::spelling).orElse("the end of the load");
  }
}
