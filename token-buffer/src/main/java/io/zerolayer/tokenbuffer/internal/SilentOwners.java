package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.runtime.InstanceMarks;
import java.time.Duration;

/**
 * The instances whose engine stopped, as one task's streams show it: an instance on which two
 * different sequences were reported stalled after no token at all for two checks (200 ms),
 * within a second of each other, is silent for 3 s after the latest of them, as long as the
 * whole-stream timeout would have let an attempt wait; each further such stream extends it. A
 * continuous-batching engine decodes its whole batch in the same steps, so two of its streams
 * stopping together is the engine, not one stream's connection; an attempt admitted there and
 * still waiting for its first token gets it only once the engine moves again, and until then
 * only the whole-stream timeout would notice. Its sequences move as soon as the instance is
 * known silent instead. A stream that only slowed never counts here: moving unstarted attempts
 * on one stream's dip made them bounce on a busy host. Used by one stream thread only.
 */
final class SilentOwners {

  /** Different sequences gone silent within the window that make an instance silent. */
  static final int SEQUENCES = 2;
  /** A stalled engine's streams are found silent within a check or two of each other. */
  private static final Duration WINDOW = Duration.ofSeconds(1);
  private static final Duration HOLD = Duration.ofSeconds(3);

  private final InstanceMarks marks = new InstanceMarks(SEQUENCES, WINDOW, HOLD);

  /** Notes that a sequence streaming on {@code owner} was reported stalled at {@code nowMs}, stopped. */
  void stopped(final String owner, final String sequenceId, final long nowMs) {
    marks.note(owner, sequenceId, nowMs);
  }

  /** Why an attempt without a token on {@code owner} must move at {@code nowMs}, or null. */
  String trouble(final String owner, final long nowMs) {
    return marks.marked(nowMs).contains(owner)
        ? "owner " + owner + " stopped: " + SEQUENCES + " or more of its streams stalled with no token at all"
        : null;
  }
}
