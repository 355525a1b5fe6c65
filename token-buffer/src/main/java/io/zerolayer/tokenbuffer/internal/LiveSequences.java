package io.zerolayer.tokenbuffer.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The ids of a task's sequences the stall checks watch (neither finished nor waiting for their
 * first decision), kept beside the sequence store in an in-memory store without a changelog, so
 * that a check every 100 ms costs the live sequences, not every sequence kept for the retention.
 * Rebuilt from the sequence store when the task starts; told of every state written after that.
 */
public final class LiveSequences {

  private final KeyValueStore<String, Long> live;

  /**
   * @param live the in-memory store of live ids (the value is when the id was noted live)
   */
  public LiveSequences(final KeyValueStore<String, Long> live) {
    this.live = requireNonNull(live, "live");
  }

  /** Whether the stall checks watch a sequence in this state. */
  static boolean watched(final SequenceState state) {
    return state.getStatus() != SequenceStatus.FINISHED && state.getStatus() != SequenceStatus.PENDING;
  }

  /** Fills the index from the sequence store, as it stands when the task starts. */
  public void rebuild(final KeyValueStore<String, SequenceState> sequences, final long nowMs) {
    try (KeyValueIterator<String, SequenceState> all = sequences.all()) {
      all.forEachRemaining(entry -> note(entry.key, entry.value, nowMs));
    }
  }

  /** Notes the state just written for a sequence. */
  public void note(final String sequenceId, final SequenceState state, final long nowMs) {
    if (watched(state)) {
      if (live.get(sequenceId) == null) {
        live.put(sequenceId, nowMs);
      }
    } else {
      live.delete(sequenceId);
    }
  }

  /** Forgets a sequence removed from the sequence store. */
  void forget(final String sequenceId) {
    live.delete(sequenceId);
  }

  /** The live ids, copied, so that the caller may change the index while it goes through them. */
  List<String> ids() {
    final List<String> ids = new ArrayList<>();
    try (KeyValueIterator<String, Long> all = live.all()) {
      all.forEachRemaining(entry -> ids.add(entry.key));
    }
    return ids;
  }
}
