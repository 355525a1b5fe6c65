package io.zerolayer.tokenbuffer.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The instances whose engine stopped, as one task's streams show it: an instance on which two
 * different sequences went silent (no token within the instance timeout) within a second of
 * each other is silent for 3 s after the latest of them, as long as the whole-stream timeout
 * would have let an attempt wait; each further silent stream extends it. A continuous-batching
 * engine decodes its whole batch in the same steps, so two of its streams going quiet together
 * is the engine, not one stream's connection; an attempt admitted there and still waiting for
 * its first token gets it only once the engine moves again, and until then only the whole-stream
 * timeout would notice. Its sequences move as soon as the instance is known silent instead. A
 * rate dip never counts here: moving unstarted attempts on a dip made them bounce on a busy host.
 * Used by one stream thread only.
 */
final class SilentOwners {

  private record Silence(String sequenceId, long atMs) {
  }

  /** Different sequences gone silent within the window that make an instance silent. */
  static final int SEQUENCES = 2;

  /** A stalled engine's streams are found silent within a check or two of each other. */
  private static final long WINDOW_MS = 1_000;
  private static final long HOLD_MS = 3_000;

  private final Map<String, Deque<Silence>> byOwner = new HashMap<>();
  private final Map<String, Long> silentUntilMs = new HashMap<>();

  /** Notes that a sequence streaming on {@code owner} went silent at {@code nowMs}. */
  void silent(final String owner, final String sequenceId, final long nowMs) {
    final Deque<Silence> recent = byOwner.computeIfAbsent(owner, id -> new ArrayDeque<>());
    recent.addLast(new Silence(sequenceId, nowMs));
    while (recent.peekFirst().atMs() < nowMs - WINDOW_MS) {
      recent.pollFirst();
    }
    final Set<String> distinct = new HashSet<>();
    recent.forEach(silence -> distinct.add(silence.sequenceId()));
    if (distinct.size() >= SEQUENCES || silentUntilMs.getOrDefault(owner, 0L) > nowMs) {
      silentUntilMs.put(owner, nowMs + HOLD_MS);
    }
  }

  /** Why an attempt without a token on {@code owner} must move at {@code nowMs}, or null. */
  String trouble(final String owner, final long nowMs) {
    silentUntilMs.values().removeIf(until -> until <= nowMs);
    byOwner.values().removeIf(recent -> recent.peekLast().atMs() < nowMs - WINDOW_MS);
    return silentUntilMs.containsKey(owner)
        ? "owner " + owner + " stopped: " + SEQUENCES + " or more of its streams sent no token within the instance"
            + " timeout"
        : null;
  }
}
