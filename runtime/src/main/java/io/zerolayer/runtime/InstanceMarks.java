package io.zerolayer.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Instances marked by what befell several of their sequences together: one on which
 * {@code sequences} different sequences were noted within {@code window} is marked for
 * {@code hold} after the latest of them, and each further note while it is marked extends the
 * mark. A sequence noted twice counts once (a record handled again after an aborted
 * transaction). Used by one thread only.
 */
public final class InstanceMarks {

  private record Note(String sequenceId, long atMs) {
  }

  private final int sequences;
  private final long windowMs;
  private final long holdMs;
  private final Map<String, Deque<Note>> byInstance = new HashMap<>();
  private final Map<String, Long> markedUntilMs = new HashMap<>();

  /**
   * @param sequences different sequences noted within the window that mark an instance, at least 1
   */
  public InstanceMarks(final int sequences, final Duration window, final Duration hold) {
    if (sequences < 1) {
      throw new IllegalArgumentException("sequences must be at least 1, not " + sequences);
    }
    this.sequences = sequences;
    this.windowMs = window.toMillis();
    this.holdMs = hold.toMillis();
  }

  /** Notes what befell a sequence on an instance at {@code nowMs}. */
  public void note(final String instanceId, final String sequenceId, final long nowMs) {
    final Deque<Note> recent = byInstance.computeIfAbsent(instanceId, id -> new ArrayDeque<>());
    recent.addLast(new Note(sequenceId, nowMs));
    while (recent.peekFirst().atMs() < nowMs - windowMs) {
      recent.pollFirst();
    }
    final Set<String> distinct = new HashSet<>();
    recent.forEach(note -> distinct.add(note.sequenceId()));
    if (distinct.size() >= sequences || markedUntilMs.getOrDefault(instanceId, 0L) > nowMs) {
      markedUntilMs.put(instanceId, nowMs + holdMs);
    }
  }

  /** Forgets an instance's mark and notes: what befell its sequences is over. */
  public void forget(final String instanceId) {
    byInstance.remove(instanceId);
    markedUntilMs.remove(instanceId);
  }

  /** The instances marked at {@code nowMs}; forgets the marks and notes that ended. */
  public Set<String> marked(final long nowMs) {
    markedUntilMs.values().removeIf(until -> until <= nowMs);
    byInstance.values().removeIf(recent -> recent.peekLast().atMs() < nowMs - windowMs);
    return markedUntilMs.keySet();
  }
}
