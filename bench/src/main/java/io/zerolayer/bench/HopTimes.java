package io.zerolayer.bench;

import java.util.List;

/**
 * When one request reached each hop on its way to the client's first chunk, wall-clock
 * milliseconds of this machine (every piece runs on it, so the clocks agree), and for every
 * later chunk how long it took from the engine to the client.
 *
 * @param sentMs the client handed the request to its producer
 * @param ackedMs the request record became readable on the ingress topic to a committed-only reader
 * @param decidedMs the router decided (the decision's own time)
 * @param dispatchVisibleMs the dispatch became readable before its transaction's commit, as a worker reads it
 * @param workerStartMs the worker took the task (its completion record's start)
 * @param engineFirstTokenMs the engine emitted the first chunk (the chunk's own time)
 * @param firstChunkOnTokensMs the first chunk became readable on the token topic
 * @param firstChunkAtClientMs the client read the first response chunk
 * @param laterChunks every later response chunk: its first token's index and engine-to-client delay
 */
record HopTimes(long sentMs, long ackedMs, long decidedMs, long dispatchVisibleMs, long workerStartMs,
    long engineFirstTokenMs, long firstChunkOnTokensMs, long firstChunkAtClientMs, List<ChunkDelay> laterChunks) {

  /** A response chunk after the first: where it starts in the sequence and engine emit to client read. */
  record ChunkDelay(int startIndex, long delayMs) {
  }

  HopTimes {
    laterChunks = List.copyOf(laterChunks);
  }

  /** The engine's own time to first token: from taking the task to emitting the first chunk. */
  long engineTtftMs() {
    return engineFirstTokenMs - workerStartMs;
  }

  /** Time to first token as the client saw it. */
  long clientTtftMs() {
    return firstChunkAtClientMs - sentMs;
  }

  /** What the layer added to the engine's time to first token. */
  long addedTtftMs() {
    return clientTtftMs() - engineTtftMs();
  }
}
