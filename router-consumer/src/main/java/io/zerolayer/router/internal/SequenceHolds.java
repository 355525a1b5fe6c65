package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.SequenceHold;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sequence ids in use on this router's partitions: held from the dispatch of a sequence's
 * first attempt until token-buffer releases them when the sequence ends (the compacted topic of
 * sequence holds, which a router reads from its beginning when it takes a partition). While an
 * id is held, another request with it is refused, whichever tenant sent it, so that no request
 * can splice its text into a stream in progress or have its tokens read as another's. Used by
 * one router thread only.
 */
public final class SequenceHolds {

  private record Hold(int partition, long offset) {
  }

  private final Map<String, Hold> holds = new HashMap<>();
  /** Ids this router took since the last settlement; an aborted transaction's are given up. */
  private final List<String> taken = new ArrayList<>();

  /**
   * Whether another request holds the id: one at another place of the ingress topic (the same
   * request read again, after an aborted transaction, is not another).
   */
  public boolean heldByAnother(final String sequenceId, final int partition, final long offset) {
    final Hold hold = holds.get(sequenceId);
    return hold != null && (hold.partition() != partition || hold.offset() != offset);
  }

  /** Holds the id for the request at that place, dispatched by this router now, until its transaction is settled. */
  public void hold(final String sequenceId, final int partition, final long offset) {
    if (holds.put(requireNonNull(sequenceId, "sequenceId"), new Hold(partition, offset)) == null) {
      taken.add(sequenceId);
    }
  }

  /** Keeps the ids taken since the last call when their transaction committed, else gives them up. */
  public void settle(final boolean committed) {
    if (!committed) {
      taken.forEach(holds::remove);
    }
    taken.clear();
  }

  /**
   * Applies a record of the holds topic.
   *
   * @param hold the hold, or null for a release (a tombstone)
   */
  public void apply(final String sequenceId, final SequenceHold hold) {
    if (hold == null) {
      holds.remove(sequenceId);
    } else {
      holds.put(sequenceId, new Hold(hold.getRequestPartition(), hold.getRequestOffset()));
    }
  }

  /** Forgets the holds of a partition this router no longer reads. */
  public void forget(final int partition) {
    holds.values().removeIf(hold -> hold.partition() == partition);
  }

  /** How many ids are held. */
  public int size() {
    return holds.size();
  }
}
