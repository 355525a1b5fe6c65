package io.zerolayer.client;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.TokenChunk;

/** A sequence the client's reader thread hands records to: one it submitted, or one it follows. */
interface Awaited {

  /** A worker's chunk of the sequence. */
  void fromWorker(TokenChunk chunk);

  /**
   * A chunk of the durable response stream.
   *
   * @return whether the sequence is done and no longer awaited
   */
  boolean fromDurable(ResponseChunk chunk);

  /**
   * Passes on what was held back until the sequence could tell its own chunks (see
   * {@link PendingResponse}); called by the reader between polls.
   *
   * @return whether the sequence is done and no longer awaited
   */
  default boolean releaseHeld() {
    return false;
  }

  /** The reader cannot go on, or the request could not be sent. */
  void fail(Throwable cause);
}
