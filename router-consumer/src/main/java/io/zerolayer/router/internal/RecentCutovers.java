package io.zerolayer.router.internal;

import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.runtime.InstanceMarks;
import java.time.Duration;
import java.util.Set;

/**
 * The cut-overs this router made away from each instance, and which instances they mark: one
 * that lost {@code sequences} different sequences within {@code window} is marked for
 * {@code hold} after the latest of them, and stays marked while its sequences keep being cut
 * away. Several of one instance's streams stalling or failing together is the engine, not a
 * stream: a stalled engine's telemetry looks as usual until its counters show it, and once its
 * sequences were moved off it even looks idle, so a load-aware ranking would send new work
 * straight into the stall. One stream's dip marks nothing, and neither does a slowdown of the
 * whole fleet: while more than a third of the known instances qualify (a busy host slows every
 * stream at once), none is marked, since sending their work to the rest would only pile it onto
 * one or two. Used by one router thread only.
 */
public final class RecentCutovers {

  /** The largest share of the known instances that may be marked at once. */
  private static final double MAX_MARKED_SHARE = 1.0 / 3;

  /** Null when marking is off. */
  private final InstanceMarks marks;

  /**
   * @param sequences different sequences cut away within the window that mark an instance; 0 marks none
   */
  public RecentCutovers(final int sequences, final Duration window, final Duration hold) {
    this.marks = sequences == 0 ? null : new InstanceMarks(sequences, window, hold);
  }

  /** Notes that a sequence was cut over away from an instance. */
  public void cutAway(final String instanceId, final String sequenceId, final long nowMs) {
    if (marks != null) {
      marks.note(instanceId, sequenceId, nowMs);
    }
  }

  /** The heatmap with the instances marked at {@code nowMs}. */
  public Heatmap applyTo(final Heatmap heatmap, final long nowMs) {
    final Set<String> marked = marks == null ? Set.of() : marks.marked(nowMs);
    final int allowed = Math.max(1, (int) (MAX_MARKED_SHARE * heatmap.rows().size()));
    final Set<String> applied = marked.size() <= allowed ? marked : Set.of();
    return applied.isEmpty() && heatmap.cutAway().isEmpty() ? heatmap : heatmap.withCutAway(applied);
  }
}
