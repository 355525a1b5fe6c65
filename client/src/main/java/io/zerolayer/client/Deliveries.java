package io.zerolayer.client;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Hands each awaited sequence its records as the reading thread reads them: a worker's chunks
 * to its pending request, the durable stream to its pending request and its follower. A
 * sequence leaves the awaited ones once its last chunk is in, or once a record breaks it. Used by
 * the reading thread only.
 */
final class Deliveries {

  private final Map<String, PendingResponse> pending;
  private final Map<String, FollowedStream> followers;
  /** The pending requests holding chunks back until their place is known. */
  private final Set<String> holding = new HashSet<>();

  /**
   * @param pending the submitted requests, by sequence id
   * @param followers the followed sequences, by sequence id
   */
  Deliveries(final Map<String, PendingResponse> pending, final Map<String, FollowedStream> followers) {
    this.pending = requireNonNull(pending, "pending");
    this.followers = requireNonNull(followers, "followers");
  }

  /** Whether a record of {@code sequenceId} is awaited. */
  boolean awaits(final String sequenceId) {
    return pending.containsKey(sequenceId) || followers.containsKey(sequenceId);
  }

  /** Hands a worker's chunk to its pending request; followers read the durable stream alone. */
  void fromWorker(final String sequenceId, final TokenChunk chunk) {
    final PendingResponse entry = pending.get(sequenceId);
    if (entry == null) {
      return;
    }
    try {
      entry.fromWorker(chunk);
      noteHolding(sequenceId, entry);
    } catch (final IllegalStateException e) {
      pending.remove(sequenceId);
      entry.fail(e);
    }
  }

  /** Hands a durable chunk to its pending request and its follower; the last one ends them. */
  void fromDurable(final ResponseChunk chunk) {
    final PendingResponse entry = deliver(pending, chunk);
    if (entry != null) {
      noteHolding(chunk.getSequenceId(), entry);
    }
    deliver(followers, chunk);
  }

  /** @return the sequence's entry the chunk went to, or null when it is not awaited there */
  private static <A extends Awaited> A deliver(final Map<String, A> waiting, final ResponseChunk chunk) {
    final A entry = waiting.get(chunk.getSequenceId());
    if (entry != null) {
      settle(waiting, chunk.getSequenceId(), entry, () -> entry.fromDurable(chunk));
    }
    return entry;
  }

  private void noteHolding(final String sequenceId, final PendingResponse entry) {
    if (entry.holding()) {
      holding.add(sequenceId);
    }
  }

  /**
   * Passes on the chunks pending requests held back until their place was known. Only those
   * holding some are visited: walking every pending request between polls took half the reading
   * thread's time with hundreds open (100 requests/s).
   */
  void releaseHeld() {
    for (final Iterator<String> ids = holding.iterator(); ids.hasNext(); ) {
      final String sequenceId = ids.next();
      final PendingResponse entry = pending.get(sequenceId);
      if (entry != null) {
        settle(pending, sequenceId, entry, entry::releaseHeld);
      }
      if (entry == null || !entry.holding()) {
        ids.remove();
      }
    }
  }

  /** Runs one delivery to an awaited sequence; it leaves the waiting ones when done or broken. */
  private static <A extends Awaited> void settle(final Map<String, A> waiting, final String sequenceId, final A entry,
      final BooleanSupplier delivery) {
    try {
      if (delivery.getAsBoolean()) {
        waiting.remove(sequenceId, entry);
      }
    } catch (final IllegalStateException e) {
      waiting.remove(sequenceId, entry);
      entry.fail(e);
    }
  }

  /** Fails every awaited sequence with {@code cause}. */
  void failAll(final Throwable cause) {
    pending.values().forEach(entry -> entry.fail(cause));
    pending.clear();
    followers.values().forEach(entry -> entry.fail(cause));
  }
}
