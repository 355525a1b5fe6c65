package io.zerolayer.tokenbuffer.query;

import io.zerolayer.contract.sequence.SequenceView;

/** Reads one sequence from token-buffer's store, wherever in the cluster it is kept. */
public interface SequenceQueries {

  /** The answer to a lookup. */
  sealed interface Lookup permits Found, Missing, Elsewhere, Unavailable {
  }

  /** This instance holds the sequence. */
  record Found(SequenceView sequence) implements Lookup {
  }

  /** No instance holds the sequence (never seen, or removed after its retention). */
  record Missing() implements Lookup {
  }

  /** Another instance of the app holds the sequence, at this {@code host:port}. */
  record Elsewhere(String host, int port) implements Lookup {
  }

  /** The store is moving (rebalance or restore); ask again shortly. */
  record Unavailable(String reason) implements Lookup {
  }

  /** Looks a sequence up; never blocks on the network. */
  Lookup find(String sequenceId);
}
