package io.zerolayer.router.internal;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The attempts this router has cut over, so that a second report of one dispatches no second
 * backup: a worker that hands an attempt back reports it itself, and token-buffer's stall rules
 * may report the same attempt before they read the cut-over. An attempt counts as handled once
 * the transaction that cut it over commits; an aborted transaction's records are read again and
 * must be handled again. The oldest are forgotten beyond {@link #CAPACITY}; a repeated report of
 * one of those, as one that reaches another router after a rebalance, gets a second decision of
 * the same epoch, which token-buffer ignores as stale. An attempt is named by its request's
 * position on the ingress topic and its epoch: a new request may reuse a finished sequence's id.
 * Used by one router thread only.
 */
final class HandledStalls {

  static final int CAPACITY = 10_000;

  private record Attempt(int requestPartition, long requestOffset, int epoch) {
  }

  private final Set<Attempt> committed = Collections.newSetFromMap(BoundedMaps.keepingNewest(CAPACITY));
  private final Set<Attempt> pending = new LinkedHashSet<>();

  /** Whether that attempt was cut over already, in a committed transaction or in the open one. */
  boolean handled(final int requestPartition, final long requestOffset, final int epoch) {
    final Attempt attempt = new Attempt(requestPartition, requestOffset, epoch);
    return committed.contains(attempt) || pending.contains(attempt);
  }

  /** Notes a cut-over made in the open transaction. */
  void handle(final int requestPartition, final long requestOffset, final int epoch) {
    pending.add(new Attempt(requestPartition, requestOffset, epoch));
  }

  /** The open transaction ended: its cut-overs count if it committed, and are forgotten if not. */
  void settle(final boolean committedTransaction) {
    if (committedTransaction) {
      committed.addAll(pending);
    }
    pending.clear();
  }
}
