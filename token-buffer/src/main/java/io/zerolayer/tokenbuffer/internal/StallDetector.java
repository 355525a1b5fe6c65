package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import java.time.Duration;

/**
 * The stall rules of one streaming sequence (DESIGN section 6), checked on a wall-clock
 * schedule: the owner ejected in the heatmap (or its token cadence past the cut-over
 * threshold), the worker's report that the attempt failed, three checks in a row whose window
 * saw the token rate down more than 40 % against the sequence's own recent rate (unless the
 * whole fleet slowed together, see {@link FleetPace}), or no token within the instance
 * timeout. Before an attempt's first token the whole-stream timeout applies instead, counted
 * from the worker's last heartbeat, since prefill and queueing legitimately take longer than
 * the gap between two tokens; one whose worker says it is alive but that still waits in its
 * queue well past its predicted first token is reported as queued, for a router to move to an
 * instance that would start it at once, if there is one. An attempt reported stalled is checked
 * again once per instance timeout for as long as no new attempt is decided for it (a router
 * found no instance to take it), and reported again while it is still stalled.
 */
public final class StallDetector {

  /** A check window's rate must stay above this share of the sequence's own recent rate. */
  static final double RATE_FLOOR = 0.6;
  static final int SLOW_CHECKS = 3;
  private static final double EWMA_WEIGHT = 0.3;

  private final long instanceTimeoutMs;
  private final long streamTimeoutMs;
  private final long checkIntervalMs;

  public StallDetector(final Duration instanceTimeout, final Duration streamTimeout, final Duration checkInterval) {
    this.instanceTimeoutMs = instanceTimeout.toMillis();
    this.streamTimeoutMs = streamTimeout.toMillis();
    this.checkIntervalMs = checkInterval.toMillis();
  }

  /**
   * What the checks of one sequence remember between two checks. It lives in memory only: after
   * a restart or a rebalance, and for each new attempt, the rate rule needs three fresh checks;
   * the timeouts run from when this instance first checked the sequence, since the stored
   * progress times say nothing of the tokens written while no instance was reading.
   */
  static final class Window {
    private final long firstCheckedMs;
    /** The epoch whose attempt the rate rule measures: each attempt is measured against its own pace. */
    private int measuredEpoch = -1;
    private int tokensAtLastCheck = -1;
    private int slowChecks;
    private long rateCheckedAtMs = -1;
    private long reportedAtMs = -1;
    private boolean queued;
    private boolean reportedQueued;

    /**
     * @param firstCheckedMs when this instance checks the sequence for the first time
     */
    Window(final long firstCheckedMs) {
      this.firstCheckedMs = firstCheckedMs;
    }

    /** Whether the rate rule measured the sequence at {@code nowMs}. */
    boolean rateCheckedAt(final long nowMs) {
      return rateCheckedAtMs == nowMs;
    }

    /** Notes that the sequence was reported stalled at {@code nowMs}, by the check just made. */
    void reported(final long nowMs) {
      reportedAtMs = nowMs;
      reportedQueued = queued;
    }

    /** Whether the last check found the attempt waiting in its queue past its allowance. */
    boolean queued() {
      return queued;
    }

    /** Whether the last window the rate rule measured was slow. */
    boolean slowing() {
      return slowChecks > 0;
    }
  }

  /**
   * Whether the sequence stalled at {@code nowMs}: the reason, or null.
   *
   * @param ownerTrouble why the heatmap wants the owner's sequences moved, or null
   * @param fleetSlow whether the last sweep saw streams slow on many instances at once; the rate
   *     rule then counts its checks but reports nothing until that ends
   * @param readingLate whether token-buffer reads the chunks late (see {@code LateReads}): only the
   *     heatmap's word and the worker's own failure report count then, no silence or slowness
   */
  String check(final SequenceState sequence, final Window window, final long nowMs, final String ownerTrouble,
      final boolean fleetSlow, final boolean readingLate) {
    window.queued = false;
    if (sequence.getStatus() != SequenceStatus.STREAMING || sequence.getOwner() == null
        || sequence.getOutcome() == null || sequence.getFinishReason() != null) {
      return null;
    }
    final boolean reportedLately = sequence.getStallReportedEpoch() >= sequence.getEpoch()
        && nowMs - Math.max(window.reportedAtMs, window.firstCheckedMs) < instanceTimeoutMs;
    if (reportedLately && !window.reportedQueued) {
      // Reported, and no new attempt decided yet: a router may be waiting for an instance to take
      // it. The attempt is checked again, and reported again if it is still stalled, after a while.
      return null;
    }
    if (ownerTrouble != null) {
      return ownerTrouble;
    }
    if (sequence.getAttemptFailure() != null) {
      return "the worker reported the attempt failed: " + sequence.getAttemptFailure();
    }
    if (readingLate) {
      return null;
    }
    return started(sequence) ? whileStreaming(sequence, window, nowMs, fleetSlow)
        : beforeFirstToken(sequence, window, nowMs, reportedLately);
  }

  /**
   * The rules before the attempt's first token: silence, and a queue wait far past its prediction.
   * An attempt whose worker says it is alive waits in its instance's queue, which is no stall, yet
   * is worth moving to an instance that would start it at once once it waits far past its
   * prediction. Only a fresh heartbeat says it still waits there (an engine that began its prefill
   * stops them); a queued report that moved nothing is repeated once per instance timeout, and
   * holds back none of the other rules meanwhile.
   */
  private String beforeFirstToken(final SequenceState sequence, final Window window, final long nowMs,
      final boolean reportedLately) {
    final long heardMs = Math.max(sequence.getLastProgressMs(), sequence.getLastHeartbeatMs());
    if (nowMs - Math.max(heardMs, window.firstCheckedMs) > streamTimeoutMs) {
      return "no first token and no word from the worker within " + streamTimeoutMs + " ms";
    }
    window.queued = !reportedLately && nowMs - sequence.getLastHeartbeatMs() <= instanceTimeoutMs
        && pastAllowance(sequence, nowMs);
    return window.queued ? "queued: no first token " + (nowMs - sequence.getLastProgressMs())
        + " ms after the decision, against " + predictedFirstTokenMs(sequence) + " ms predicted" : null;
  }

  /** The rules once the attempt sent tokens: silence for the instance timeout, and the rate rule. */
  private String whileStreaming(final SequenceState sequence, final Window window, final long nowMs,
      final boolean fleetSlow) {
    if (nowMs - Math.max(sequence.getLastProgressMs(), window.firstCheckedMs) > instanceTimeoutMs) {
      return "no token within " + instanceTimeoutMs + " ms";
    }
    if (window.measuredEpoch != sequence.getEpoch()) {
      // A backup's first check must not count against it the tokens its stalled predecessor never sent.
      window.measuredEpoch = sequence.getEpoch();
      window.tokensAtLastCheck = -1;
      window.slowChecks = 0;
    }
    final int tokens = sequence.getTokenCount();
    final boolean measured = window.tokensAtLastCheck >= 0 && sequence.getRateTokensPerS() > 0;
    final double windowRate = (tokens - window.tokensAtLastCheck) * 1000.0 / checkIntervalMs;
    window.slowChecks = measured && windowRate < RATE_FLOOR * sequence.getRateTokensPerS()
        ? window.slowChecks + 1 : 0;
    window.tokensAtLastCheck = tokens;
    window.rateCheckedAtMs = nowMs;
    if (window.slowChecks >= SLOW_CHECKS && !fleetSlow) {
      return String.format("token rate down more than %.0f%% for %d checks (recent rate %.1f/s)",
          100 * (1 - RATE_FLOOR), SLOW_CHECKS, sequence.getRateTokensPerS());
    }
    return null;
  }

  /**
   * Whether an attempt without a first token waits past its allowance at {@code nowMs}: half its
   * predicted time to the first token again, and at least the whole-stream timeout, so that a
   * prediction's usual error moves nothing. No prediction, no allowance to pass.
   */
  private boolean pastAllowance(final SequenceState sequence, final long nowMs) {
    final long predictedMs = predictedFirstTokenMs(sequence);
    return sequence.getFirstTokenDueMs() > 0
        && nowMs > sequence.getFirstTokenDueMs() + Math.max(streamTimeoutMs, predictedMs / 2);
  }

  /** The decided attempt's predicted time to its first token, from its decision (before its first token). */
  private static long predictedFirstTokenMs(final SequenceState sequence) {
    return Math.max(0, sequence.getFirstTokenDueMs() - sequence.getLastProgressMs());
  }

  /**
   * How long the attempt has sent no new token at {@code nowMs}: before its first, how long its
   * worker has said nothing either.
   */
  static long quietMs(final SequenceState sequence, final long nowMs) {
    final long since = started(sequence) ? sequence.getLastProgressMs()
        : Math.max(sequence.getLastProgressMs(), sequence.getLastHeartbeatMs());
    return Math.max(0, nowMs - since);
  }

  /**
   * Whether the attempt sent tokens and then none for two checks or more: a stream reported
   * stalled after that stopped, rather than slowed. A stopped engine's streams are mostly
   * reported by the rate rule, their rate down to zero, well before the instance timeout; the
   * first of the rule's three windows may still have seen the last token.
   */
  boolean stopped(final SequenceState sequence, final long nowMs) {
    return started(sequence) && nowMs - sequence.getLastProgressMs() >= (SLOW_CHECKS - 1) * checkIntervalMs;
  }

  /**
   * Whether an attempt of the decided epoch owns the token stream and has sent tokens into it:
   * the decided one, or another run of its task (one a worker took from a router transaction that
   * was then aborted), which is watched in its place.
   */
  static boolean started(final SequenceState sequence) {
    return sequence.getAttemptTokens() > 0 && sequence.getStreamOwner() != null
        && sequence.getStreamEpoch() == sequence.getEpoch();
  }

  /** The instance whose silence or trouble counts: the stream's owner once started, else the decided one. */
  static String watched(final SequenceState sequence) {
    return started(sequence) ? sequence.getStreamOwner() : sequence.getOwner();
  }

  /** The sequence's rate after {@code newTokens} came {@code elapsedMs} after the previous ones. */
  public static double updatedRate(final double rate, final int newTokens, final long elapsedMs) {
    final double current = newTokens * 1000.0 / Math.max(1, elapsedMs);
    return rate <= 0 ? current : EWMA_WEIGHT * current + (1 - EWMA_WEIGHT) * rate;
  }
}
