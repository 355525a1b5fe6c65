package io.zerolayer.fleet.fault;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A fault as it was injected: the schedule's entry, when it was injected, how long after the
 * schedule's start that was, and the instances it hit.
 */
public record AppliedFault(ScheduledFault fault, Instant appliedAt, Duration sinceStart, List<String> instanceIds) {

  public AppliedFault {
    requireNonNull(fault, "fault");
    requireNonNull(appliedAt, "appliedAt");
    requireNonNull(sinceStart, "sinceStart");
    instanceIds = List.copyOf(instanceIds);
  }

  @Override
  public String toString() {
    return fault + " applied at " + appliedAt + " (+" + sinceStart.toMillis() + " ms) to " + instanceIds;
  }
}
