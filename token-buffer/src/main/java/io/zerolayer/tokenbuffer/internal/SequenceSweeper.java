package io.zerolayer.tokenbuffer.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.runtime.LateReads;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One wall-clock pass over a task's live sequences ({@link LiveSequences}): reports each stalled attempt (the rate rule
 * only while the streams did not slow on many instances at once, see {@link FleetPace}; an
 * attempt without a token at once when its owner's streams stopped, see
 * {@link SilentOwners}); and, over a bounded slice of the store each time, removes finished
 * sequences (and tokens held for a decision that never came) older than the retention, with a
 * tombstone in the changelog; with cut-over off, also streaming ones silent for longer.
 */
public final class SequenceSweeper {

  /** Sequences of the store each sweep looks at for expiry. */
  public static final int EXPIRY_BATCH = 200;

  private final StallDetector detector;
  private final long retentionMs;
  private final boolean cutover;
  private final Map<String, StallDetector.Window> windows = new HashMap<>();
  private final FleetPace pace = new FleetPace();
  private final SilentOwners silentOwners;
  /**
   * Behind while no chunk read in the last second was fresh; through pauses in the reads of up
   * to 5 s, as when each commit of a task far behind waits on a busy broker.
   */
  private final LateReads readLag = new LateReads(250, 1_000, 5_000);
  private final SequenceMeters meters;
  private final LongPredicate inputBehind;
  /** Where the next sweep's expiry pass starts in the store's key order; null for its first key. */
  private String expiryFrom;

  /**
   * @param cutover whether stalled attempts are reported for a backup; if not, none is, and a
   *     streaming sequence silent for longer than the retention is removed, since nothing will
   *     resume it and its client gave up long before
   * @param silentOwners the app's instances whose engine stopped, which every task notes into
   * @param inputBehind whether the task reads far behind the end of its tokens partition at a time ({@link InputLag})
   */
  SequenceSweeper(final StallDetector detector, final Duration retention, final boolean cutover,
      final SilentOwners silentOwners, final SequenceMeters meters, final LongPredicate inputBehind) {
    this.detector = requireNonNull(detector, "detector");
    this.silentOwners = requireNonNull(silentOwners, "silentOwners");
    this.meters = requireNonNull(meters, "meters");
    this.inputBehind = requireNonNull(inputBehind, "inputBehind");
    this.retentionMs = retention.toMillis();
    this.cutover = cutover;
  }

  /**
   * @param owners what the heatmap says about the sequences' owners
   * @param released told the id of each unfinished sequence removed (with cut-over off), which
   *     nothing will end
   */
  void sweep(final KeyValueStore<String, SequenceState> sequences, final LiveSequences live, final TokenStore tokens,
      final long nowMs, final OwnerHealth owners, final BiConsumer<String, StallDetected> stalls,
      final Consumer<String> released) {
    expireSome(sequences, live, tokens, nowMs, released);
    final boolean late = late(nowMs);
    if (late) {
      meters.readLate();
    }
    final Set<String> streaming = new HashSet<>();
    if (cutover) {
      for (final String key : live.ids()) {
        final SequenceState sequence = sequences.get(key);
        if (sequence == null || !LiveSequences.watched(sequence)) {
          live.forget(key);
          continue;
        }
        streaming.add(key);
        check(sequences, tokens, key, sequence, nowMs, owners, stalls, late);
      }
    }
    windows.keySet().retainAll(streaming);
    pace.endSweep();
    if (pace.slow()) {
      meters.fleetSlowed();
    }
  }

  /**
   * Removes, from the next {@link #EXPIRY_BATCH} sequences of the store in key order, the finished
   * ones (and tokens held for a decision that never came) older than the retention; with cut-over
   * off, also streaming ones silent for longer. Each sweep goes on where the last one stopped, so
   * a sweep costs the same however many sequences the retention keeps, and each is looked at
   * every {@code kept / EXPIRY_BATCH} sweeps.
   */
  private void expireSome(final KeyValueStore<String, SequenceState> sequences, final LiveSequences live,
      final TokenStore tokens, final long nowMs, final Consumer<String> released) {
    int seen = 0;
    String last = null;
    try (KeyValueIterator<String, SequenceState> next = sequences.range(expiryFrom, null)) {
      while (next.hasNext() && seen < EXPIRY_BATCH) {
        final KeyValue<String, SequenceState> entry = next.next();
        seen++;
        last = entry.key;
        final SequenceState sequence = entry.value;
        final boolean done = !LiveSequences.watched(sequence);
        final long quietMs = nowMs - Math.max(sequence.getLastProgressMs(), sequence.getLastHeartbeatMs());
        if ((done || !cutover) && quietMs > retentionMs) {
          sequences.delete(entry.key);
          tokens.delete(entry.key);
          live.forget(entry.key);
          if (!done) {
            released.accept(entry.key);
          }
        }
      }
    }
    // A full batch: the next sweep starts after its last key; else the store was read to its end.
    expiryFrom = seen == EXPIRY_BATCH ? last + "\0" : null;
  }

  /** Notes a token chunk written at {@code writtenMs} and read now, for {@link LateReads}. */
  void read(final long writtenMs, final long nowMs) {
    readLag.read(writtenMs, nowMs);
  }

  /** Checks one streaming sequence now and reports it if it stalled, as a sweep would. */
  void check(final KeyValueStore<String, SequenceState> sequences, final TokenStore tokens, final String key,
      final SequenceState sequence, final long nowMs, final OwnerHealth owners,
      final BiConsumer<String, StallDetected> stalls) {
    check(sequences, tokens, key, sequence, nowMs, owners, stalls, late(nowMs));
  }

  /** @param late whether the task reads late now ({@link #late}), asked once a sweep */
  private void check(final KeyValueStore<String, SequenceState> sequences, final TokenStore tokens, final String key,
      final SequenceState sequence, final long nowMs, final OwnerHealth owners,
      final BiConsumer<String, StallDetected> stalls, final boolean late) {
    final StallDetector.Window window = windows.computeIfAbsent(key, k -> new StallDetector.Window(nowMs));
    final String reason = detector.check(sequence, window, nowMs, ownerTrouble(sequence, owners, nowMs, late),
        pace.slow(), late);
    if (window.rateCheckedAt(nowMs)) {
      pace.note(StallDetector.watched(sequence), window.slowing());
    }
    if (reason != null && detector.stopped(sequence, nowMs)) {
      silentOwners.stopped(StallDetector.watched(sequence), key, nowMs);
    }
    if (reason != null) {
      window.reported(nowMs);
      sequences.put(key, SequenceState.newBuilder(sequence).setStallReportedEpoch(sequence.getEpoch()).build());
      stalls.accept(key, stall(sequence, tokens.first(key, sequence.getTokenCount()), reason, window.queued(),
          nowMs));
    }
  }

  /**
   * Whether the task reads late: its chunks come in long after they were written ({@link
   * LateReads}), or it reads far behind the end of its partition. Its sequences' silence is then
   * its own backlog, so only the heatmap's word and the workers' own failure reports count.
   */
  private boolean late(final long nowMs) {
    return readLag.late(nowMs) || inputBehind.test(nowMs);
  }

  /**
   * Why the owner must give the sequence up now: the heatmap's say, else a silent engine's (not
   * while the task reads late); or null.
   */
  private String ownerTrouble(final SequenceState sequence, final OwnerHealth owners, final long nowMs,
      final boolean late) {
    final String watched = StallDetector.watched(sequence);
    if (watched == null) {
      return null;
    }
    final boolean started = StallDetector.started(sequence);
    final String trouble = owners.trouble(watched, started);
    return trouble != null || started || late ? trouble
        : silentOwners.trouble(watched, nowMs, sequence.getLastProgressMs(), sequence.getFirstTokenDueMs());
  }

  /** The report a backup resumes from: the sequence's tokens so far go with it, for the engine to continue. */
  private static StallDetected stall(final SequenceState sequence, final List<String> prefix, final String reason,
      final boolean queued, final long nowMs) {
    return StallDetected.newBuilder()
        .setSequenceId(sequence.getSequenceId())
        .setEpoch(sequence.getEpoch())
        .setInstanceId(StallDetector.watched(sequence))
        .setNextIndex(prefix.size())
        .setPrefix(prefix)
        .setPrefixOffset(sequence.getLastChunkOffset())
        .setStreamEpoch(sequence.getStreamEpoch())
        .setStreamOwner(sequence.getStreamOwner())
        .setStreamAttempt(sequence.getStreamAttempt())
        .setBehindAttempts(sequence.getBehindAttempts())
        .setReason(reason)
        .setQueued(queued)
        .setRequestPartition(sequence.getRequestPartition())
        .setRequestOffset(sequence.getRequestOffset())
        .setDetectedAtMs(nowMs)
        .setQuietMs(StallDetector.quietMs(sequence, nowMs))
        .build();
  }
}
