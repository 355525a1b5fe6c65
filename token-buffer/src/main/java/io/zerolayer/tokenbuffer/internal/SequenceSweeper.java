package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.contract.avro.StallDetected;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One wall-clock pass over a task's sequences: reports each stalled attempt once, and removes
 * finished sequences (and tokens held for a decision that never came) older than the retention,
 * with a tombstone in the changelog.
 */
final class SequenceSweeper {

  private final Optional<StallDetector> detector;
  private final long retentionMs;
  private final Map<String, StallDetector.Window> windows = new HashMap<>();

  /**
   * @param detector the stall rules; empty when sequences are not resumed, so none is reported
   */
  SequenceSweeper(final Optional<StallDetector> detector, final Duration retention) {
    this.detector = detector;
    this.retentionMs = retention.toMillis();
  }

  /**
   * @param owners what the heatmap says about the sequences' owners
   */
  void sweep(final KeyValueStore<String, SequenceState> sequences, final long nowMs,
      final OwnerHealth owners, final BiConsumer<String, StallDetected> stalls) {
    final Set<String> streaming = new HashSet<>();
    try (KeyValueIterator<String, SequenceState> all = sequences.all()) {
      while (all.hasNext()) {
        final KeyValue<String, SequenceState> entry = all.next();
        final SequenceState sequence = entry.value;
        // Finished sequences, and tokens held for a decision that never came, leave after the retention.
        if (sequence.getStatus() == SequenceStatus.FINISHED || sequence.getStatus() == SequenceStatus.PENDING) {
          if (nowMs - sequence.getLastProgressMs() > retentionMs) {
            sequences.delete(entry.key);
          }
          continue;
        }
        if (detector.isEmpty()) {
          continue;
        }
        streaming.add(entry.key);
        final String reason = detector.get().check(sequence,
            windows.computeIfAbsent(entry.key, k -> new StallDetector.Window()), nowMs,
            sequence.getOwner() == null ? null : owners.trouble(sequence.getOwner(), sequence.getAttemptTokens() > 0));
        if (reason != null) {
          sequences.put(entry.key, SequenceState.newBuilder(sequence).setStallReportedEpoch(sequence.getEpoch())
              .build());
          stalls.accept(entry.key, stall(sequence, reason, nowMs));
        }
      }
    }
    windows.keySet().retainAll(streaming);
  }

  private static StallDetected stall(final SequenceState sequence, final String reason, final long nowMs) {
    return StallDetected.newBuilder()
        .setSequenceId(sequence.getSequenceId())
        .setEpoch(sequence.getEpoch())
        .setInstanceId(sequence.getOwner())
        .setNextIndex(sequence.getTokens().size())
        .setReason(reason)
        .setRequestPartition(sequence.getRequestPartition())
        .setRequestOffset(sequence.getRequestOffset())
        .setDetectedAtMs(nowMs)
        .build();
  }
}
