package io.zerolayer.fleet.load;

import io.zerolayer.contract.avro.ResponseChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The response chunks of watched sequences with the time each arrived, handed over when the
 * final chunk arrives. Chunks of sequences nobody watches are ignored. One thread reads chunks
 * in; any thread may watch and forget.
 */
final class ChunkLedger {

  private final Map<String, Watch> watches = new ConcurrentHashMap<>();

  /** Starts watching a sequence; completes with its chunks once its final chunk arrived. */
  CompletableFuture<List<ChunkArrival>> watch(final String sequenceId) {
    final Watch watch = new Watch();
    watches.put(sequenceId, watch);
    return watch.done;
  }

  /** Stops watching a sequence whose stream the client no longer waits for. */
  void forget(final String sequenceId) {
    final Watch watch = watches.remove(sequenceId);
    if (watch != null) {
      watch.done.cancel(false);
    }
  }

  /** Notes a chunk read at {@code atNanos}. */
  void accept(final ResponseChunk chunk, final long atNanos) {
    final Watch watch = watches.get(chunk.getSequenceId());
    if (watch == null) {
      return;
    }
    watch.chunks.add(new ChunkArrival(atNanos, chunk.getTokens().size(), chunk.getInstanceId(), chunk.getEpoch()));
    if (chunk.getLast()) {
      watches.remove(chunk.getSequenceId());
      watch.done.complete(List.copyOf(watch.chunks));
    }
  }

  /** Sequences watched now. */
  int watched() {
    return watches.size();
  }

  private static final class Watch {
    /** Written by the reading thread only; handed over through {@link #done}. */
    private final List<ChunkArrival> chunks = new ArrayList<>();
    private final CompletableFuture<List<ChunkArrival>> done = new CompletableFuture<>();
  }
}
