package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.runtime.InstanceMarks;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The instances whose engine stopped, as their streams show it: an instance on which two
 * different sequences were reported stalled after no token at all for two checks (200 ms),
 * within a second of each other, is silent for 3 s after the latest of them, as long as the
 * whole-stream timeout would have let an attempt wait; each further such stream extends it,
 * and a token its engine emitted after the latest of them ends it at once. A
 * continuous-batching engine decodes its whole batch in the same steps, so two of its streams
 * stopping together is the engine, not one stream's connection; an attempt admitted there and
 * still waiting for its first token gets it only once the engine moves again, and until then
 * only the whole-stream timeout would notice. Its sequences move as soon as the instance is
 * known silent instead. A stream that only slowed never counts here: moving unstarted attempts
 * on one stream's dip made them bounce on a busy host.
 *
 * <p>One for the whole app: an instance's streams are spread over every partition of the
 * tokens topic, so the tasks of all stream threads note into it and ask it. Each task alone saw
 * a sixth of an instance's streams, and an engine that stopped with a stream in each of two
 * tasks was never found silent. Held for its 3 s alone, the mark outlived a one-second stall and
 * moved the requests sent there after it ended.
 *
 * <p>An attempt decided after the latest stopped stream is moved on the mark only once its first
 * token is overdue (its predicted time and {@link #OVERDUE_MS} more). An engine that moved again
 * with no stream left on it has nothing to show it by: its streams were the ones moved away. Moved at
 * once, the first requests sent to it after its stall ended went elsewhere within 130 ms, before
 * their prefill could end, and the routers, seeing sequences cut away from it, kept new work off
 * it and piled it on the instance left.
 */
public final class SilentOwners {

  /** Different sequences gone silent within the window that make an instance silent. */
  static final int SEQUENCES = 2;
  /** A stalled engine's streams are found silent within a check or two of each other. */
  private static final Duration WINDOW = Duration.ofSeconds(1);
  private static final Duration HOLD = Duration.ofSeconds(3);
  /** How long past its due first token an attempt decided after the latest stopped stream waits. */
  private static final long OVERDUE_MS = 200;

  private final InstanceMarks marks = new InstanceMarks(SEQUENCES, WINDOW, HOLD);
  /** When a stream of each instance was last noted stopped. */
  private final Map<String, Long> lastStoppedMs = new HashMap<>();

  /** Notes that a sequence streaming on {@code owner} was reported stalled at {@code nowMs}, stopped. */
  synchronized void stopped(final String owner, final String sequenceId, final long nowMs) {
    marks.note(owner, sequenceId, nowMs);
    lastStoppedMs.put(owner, nowMs);
  }

  /**
   * Notes a chunk of tokens {@code owner}'s engine emitted at {@code emittedAtMs}: after its
   * latest stopped stream, the engine moves again and is no longer silent. One emitted before
   * (read late) says nothing.
   */
  synchronized void progressed(final String owner, final long emittedAtMs) {
    final Long stoppedMs = lastStoppedMs.get(owner);
    if (stoppedMs != null && emittedAtMs > stoppedMs) {
      lastStoppedMs.remove(owner);
      marks.forget(owner);
    }
  }

  /**
   * Why an attempt without a token on {@code owner} must move at {@code nowMs}, or null.
   *
   * @param decidedMs when the attempt was decided
   * @param firstTokenDueMs when its first token is due by its router's prediction; 0 for none
   */
  synchronized String trouble(final String owner, final long nowMs, final long decidedMs,
      final long firstTokenDueMs) {
    if (!marks.marked(nowMs).contains(owner)) {
      return null;
    }
    final Long stoppedMs = lastStoppedMs.get(owner);
    if (stoppedMs != null && decidedMs > stoppedMs && nowMs < Math.max(decidedMs, firstTokenDueMs) + OVERDUE_MS) {
      return null;
    }
    return "owner " + owner + " stopped: " + SEQUENCES + " or more of its streams stalled with no token at all";
  }
}
