package io.zerolayer.fleet.fault;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * One entry of a {@link FaultSchedule}: inject {@code kind} into {@code target} (an instance id,
 * or a zone for zone-wide kinds) {@code at} after the schedule starts.
 */
public record ScheduledFault(FaultKind kind, Duration at, String target) {

  public ScheduledFault {
    requireNonNull(kind, "kind");
    requireNonNull(at, "at");
    requireNonNull(target, "target");
    if (at.isNegative()) {
      throw new IllegalArgumentException("A fault cannot be scheduled before the start, at " + at);
    }
    if (target.isBlank()) {
      throw new IllegalArgumentException("A fault needs a target");
    }
  }

  /** The entry as the schedule grammar spells it, e.g. {@code oom@20s:gpu-3} or {@code cold@1500ms:gpu-5}. */
  @Override
  public String toString() {
    final long millis = at.toMillis();
    final String offset = millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    return kind.spelling() + "@" + offset + ":" + target;
  }
}
