package io.zerolayer.client;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One request the client waits for: merges the workers' chunks with the durable stream
 * ({@link StreamMerger}), hands each new part to its listeners, each index once and in order, and
 * completes with the whole response once the durable stream ends. Used by the reader thread only.
 */
final class PendingResponse implements Awaited {

  private final CompletableFuture<Response> future = new CompletableFuture<>();
  private final String sequenceId;
  private final ResponseAssembler assembler;
  private final StreamMerger merger;
  private final Consumer<ResponseChunk> listener;

  /**
   * @param listener called with each new part of the stream, then with its last chunk; must not block
   */
  PendingResponse(final String sequenceId, final Consumer<ResponseChunk> listener) {
    this.sequenceId = requireNonNull(sequenceId, "sequenceId");
    this.listener = requireNonNull(listener, "listener");
    this.assembler = new ResponseAssembler(sequenceId);
    this.merger = new StreamMerger(sequenceId);
  }

  CompletableFuture<Response> future() {
    return future;
  }

  /** A worker's chunk: its new tokens go on at once if it belongs to the stream. */
  @Override
  public void fromWorker(final TokenChunk chunk) {
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
    final ResponseChunk fresh = merger.fromDurable(chunk);
    if (fresh != null) {
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
