package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.fleet.fault.AppliedFault;
import io.zerolayer.fleet.load.RequestOutcome;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one policy's turn of the benchmark recorded: every request's outcome as the client saw
 * it, every dispatch the router decided, and the faults as they were injected.
 *
 * @param policy the routing policy's name
 * @param outcomes every request's outcome, warm-up included
 * @param dispatches every dispatch decision, in the order read
 * @param faults the faults injected, with their times
 * @param headroom which instances had room, sampled through the load, oldest first
 * @param coldIds instances the fleet started cold
 * @param clock ties the outcomes' monotonic times to the wall clock
 * @param loadStartMs when the load started, epoch milliseconds
 * @param measureFromMs requests sent from then on count in the figures (the warm-up before does not)
 * @param loadEndMs when the load stopped sending
 */
record PolicyRun(String policy, List<RequestOutcome> outcomes, List<Dispatch> dispatches,
    List<AppliedFault> faults, List<Headroom> headroom, Set<String> coldIds, RunClock clock, long loadStartMs,
    long measureFromMs, long loadEndMs) {

  PolicyRun {
    requireNonNull(policy, "policy");
    outcomes = List.copyOf(outcomes);
    dispatches = List.copyOf(dispatches);
    faults = List.copyOf(faults);
    headroom = List.copyOf(headroom);
    coldIds = Set.copyOf(coldIds);
    requireNonNull(clock, "clock");
    if (measureFromMs < loadStartMs || loadEndMs < measureFromMs) {
      throw new IllegalArgumentException("Need load start <= measuring start <= load end, got " + loadStartMs
          + ", " + measureFromMs + ", " + loadEndMs);
    }
  }

  /**
   * Whether, at the last sample at or before {@code atMs}, an instance outside {@code instanceIds}
   * had room; false before the first sample.
   */
  boolean roomOutside(final Set<String> instanceIds, final long atMs) {
    Headroom last = null;
    for (final Headroom sample : headroom) {
      if (sample.atMs() > atMs) {
        break;
      }
      last = sample;
    }
    return last != null && last.instanceIds().stream().anyMatch(id -> !instanceIds.contains(id));
  }

  /** The requests that count: those sent after the warm-up. */
  List<RequestOutcome> measured() {
    return outcomes.stream().filter(o -> sentMs(o) >= measureFromMs).toList();
  }

  /** How long the measured window lasted: from the warm-up's end until the last measured request ended. */
  long measuredWindowMs() {
    final long end = measured().stream().mapToLong(this::finishedMs).max().orElse(loadEndMs);
    return end - measureFromMs;
  }

  /** When a request was sent, epoch milliseconds. */
  long sentMs(final RequestOutcome outcome) {
    return clock.wallMs(outcome.sentNanos());
  }

  /** When a request ended (its final chunk, or the client gave up), epoch milliseconds. */
  long finishedMs(final RequestOutcome outcome) {
    return clock.wallMs(outcome.finishedNanos());
  }

  /** Every outcome by its sequence id. */
  Map<String, RequestOutcome> bySequence() {
    final Map<String, RequestOutcome> map = new HashMap<>();
    outcomes.forEach(o -> map.put(o.sequenceId(), o));
    return map;
  }
}
