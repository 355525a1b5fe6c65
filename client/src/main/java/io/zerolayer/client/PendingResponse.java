package io.zerolayer.client;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.avro.specific.SpecificRecord;

/**
 * One request the client waits for: merges the workers' chunks with the durable stream
 * ({@link StreamMerger}), hands each new part to its listeners, each index once and in order, and
 * completes with the whole response once the durable stream ends. The listeners hear the end as
 * soon as either stream ends it, and nothing after: a stream that a served attempt's engine
 * finished ends from the workers' log, and the durable stream then only checks it. Chunks that
 * answer another request with the same sequence id (one the routers refused because the id was in
 * use) are not its own: they are passed over by the request's place on the ingress topic. A chunk that names a
 * place read before the client knows its own (the producer's acknowledgement can come after the
 * answer) is held back until it does. Used by the reader thread, but for {@link #placed}.
 */
final class PendingResponse implements Awaited {

  /** Where a request record is on the ingress topic. */
  private record Place(int partition, long offset) {
  }

  private final CompletableFuture<Response> future = new CompletableFuture<>();
  private final String sequenceId;
  private final ResponseAssembler assembler;
  private final StreamMerger merger;
  private final Consumer<ResponseChunk> listener;
  private final LongConsumer started;
  private boolean startedTold;
  private volatile Place place;
  /** Chunks that named a place before this request's own was known, in the order read. */
  private final List<SpecificRecord> held = new ArrayList<>();

  /**
   * @param listener called with each new part of the stream, then with its last chunk; must not block
   * @param started called once, with the emit time of the first chunk a worker wrote for the
   *     request (its claim, or a heartbeat while it waits for the engine): when a worker had it
   */
  PendingResponse(final String sequenceId, final Consumer<ResponseChunk> listener, final LongConsumer started) {
    this.sequenceId = requireNonNull(sequenceId, "sequenceId");
    this.listener = requireNonNull(listener, "listener");
    this.started = requireNonNull(started, "started");
    this.assembler = new ResponseAssembler(sequenceId);
    this.merger = new StreamMerger(sequenceId);
  }

  CompletableFuture<Response> future() {
    return future;
  }

  /** The request was appended there (on the producer's thread). */
  void placed(final int partition, final long offset) {
    place = new Place(partition, offset);
  }

  /**
   * Whether a chunk answering the request at that place (-1 when it does not say, as older writers
   * do) is this request's; call only once the place is known or the chunk names none.
   */
  private boolean mine(final int partition, final long offset) {
    final Place own = place;
    return partition < 0 || offset < 0 || own.partition() == partition && own.offset() == offset;
  }

  /** Whether the chunk must wait: it names a place, and this request's is not known yet. */
  private boolean heldBack(final SpecificRecord chunk, final int partition, final long offset) {
    if (place == null && partition >= 0 && offset >= 0) {
      held.add(chunk);
      return true;
    }
    return false;
  }

  /** Whether it holds chunks back until its place is known; the reading thread's call. */
  boolean holding() {
    return !held.isEmpty();
  }

  /**
   * Once the request's place is known, passes the chunks held back before it, in order.
   *
   * @return whether the response is done
   */
  @Override
  public boolean releaseHeld() {
    if (held.isEmpty() || place == null) {
      return false;
    }
    final List<SpecificRecord> release = List.copyOf(held);
    held.clear();
    boolean done = false;
    for (final SpecificRecord chunk : release) {
      if (chunk instanceof TokenChunk worker) {
        fromWorker(worker);
      } else {
        done = fromDurable((ResponseChunk) chunk) || done;
      }
    }
    return done;
  }

  /** A worker's chunk: its new tokens go on at once if it belongs to the stream. */
  @Override
  public void fromWorker(final TokenChunk chunk) {
    releaseHeld();
    if (heldBack(chunk, chunk.getRequestPartition(), chunk.getRequestOffset())
        || !mine(chunk.getRequestPartition(), chunk.getRequestOffset())) {
      return;
    }
    if (!startedTold) {
      startedTold = true;
      started.accept(chunk.getEmittedAtMs());
    }
    final ResponseChunk fresh = merger.fromWorker(chunk);
    if (fresh != null) {
      listener.accept(fresh);
    }
  }

  /**
   * A durable chunk: what the workers' chunks did not bring yet goes on; the last one completes the
   * response, or fails it when the tokens passed on differ from the durable stream's.
   *
   * @return whether the response is done
   */
  @Override
  public boolean fromDurable(final ResponseChunk chunk) {
    if (releaseHeld()) {
      return true;
    }
    if (heldBack(chunk, chunk.getRequestPartition(), chunk.getRequestOffset())
        || !mine(chunk.getRequestPartition(), chunk.getRequestOffset())) {
      return false;
    }
    final boolean endedAlready = merger.endedFromWorkers();
    final ResponseChunk fresh = merger.fromDurable(chunk);
    if (fresh != null && !endedAlready) {
      listener.accept(fresh);
    }
    final Response response = assembler.add(chunk);
    if (response == null) {
      return false;
    }
    if (merger.divergences() > 0 || !merger.passed().equals(response.tokens())) {
      // Never expected (both streams follow the tokens log's order); a response that broke its promise fails.
      future.completeExceptionally(new IllegalStateException("Response of " + sequenceId
          + ": the tokens passed on as the workers wrote them differ from the durable stream ("
          + merger.divergences() + " differing, " + merger.passed().size() + " passed on, "
          + response.tokens().size() + " durable)"));
    } else {
      future.complete(response);
    }
    return true;
  }

  @Override
  public void fail(final Throwable cause) {
    future.completeExceptionally(cause);
  }
}
