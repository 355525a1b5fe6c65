package io.zerolayer.router.internal;

import io.zerolayer.router.policy.Heatmap;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The cut-overs this router made away from each instance, and which instances they mark: one
 * that lost {@code sequences} different sequences within {@code window} is marked for
 * {@code hold} after the latest of them. Several of one instance's streams stalling or failing
 * together is the engine, not a stream: a stalled engine's telemetry looks as usual until its
 * counters show it, and once its sequences were moved off it even looks idle, so a load-aware
 * ranking would send new work straight into the stall. One stream's dip marks nothing, and
 * neither does a slowdown of the whole fleet: while more than a third of the known instances
 * qualify (a busy host slows every stream at once), none is marked, since sending their work to
 * the rest would only pile it onto one or two. Used by one router thread only.
 */
public final class RecentCutovers {

  private record CutAway(String sequenceId, long atMs) {
  }

  /** The largest share of the known instances that may be marked at once. */
  private static final double MAX_MARKED_SHARE = 1.0 / 3;

  private final int sequences;
  private final long windowMs;
  private final long holdMs;
  private final Map<String, Deque<CutAway>> byInstance = new HashMap<>();
  private final Map<String, Long> markedUntilMs = new HashMap<>();

  /**
   * @param sequences different sequences cut away within the window that mark an instance; 0 marks none
   */
  public RecentCutovers(final int sequences, final Duration window, final Duration hold) {
    this.sequences = sequences;
    this.windowMs = window.toMillis();
    this.holdMs = hold.toMillis();
  }

  /** Notes that a sequence was cut over away from an instance. */
  public void cutAway(final String instanceId, final String sequenceId, final long nowMs) {
    if (sequences == 0) {
      return;
    }
    final Deque<CutAway> recent = byInstance.computeIfAbsent(instanceId, id -> new ArrayDeque<>());
    recent.addLast(new CutAway(sequenceId, nowMs));
    while (recent.peekFirst().atMs() < nowMs - windowMs) {
      recent.pollFirst();
    }
    final Set<String> distinct = new HashSet<>();
    recent.forEach(cut -> distinct.add(cut.sequenceId()));
    // A marked instance stays marked while its sequences keep being cut away.
    if (distinct.size() >= sequences || markedUntilMs.getOrDefault(instanceId, 0L) > nowMs) {
      markedUntilMs.put(instanceId, nowMs + holdMs);
    }
  }

  /** The heatmap with the instances marked at {@code nowMs}. */
  public Heatmap applyTo(final Heatmap heatmap, final long nowMs) {
    markedUntilMs.values().removeIf(until -> until <= nowMs);
    byInstance.values().removeIf(recent -> recent.peekLast().atMs() < nowMs - windowMs);
    final int allowed = Math.max(1, (int) (MAX_MARKED_SHARE * heatmap.rows().size()));
    final Set<String> marked = markedUntilMs.size() <= allowed ? markedUntilMs.keySet() : Set.of();
    return marked.isEmpty() && heatmap.cutAway().isEmpty() ? heatmap : heatmap.withCutAway(marked);
  }
}
