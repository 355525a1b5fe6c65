package io.zerolayer.client;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.sequence.SequenceView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A sequence the client joins in the middle, such as a stream a client reconnects to: what
 * token-buffer had persisted when the follower asked ({@link #start}), then the durable response
 * stream from there, each index once and in order. It reads the durable stream alone: it starts
 * after the stream's owner claimed it, so it could not judge the workers' chunks by the tokens
 * log's rules. Durable chunks read before {@link #start} wait for it, so none falls between the
 * persisted tokens and the stream. A chunk that answers another request with the same sequence id
 * (one the routers refused because the id was in use) is passed over.
 */
public final class FollowedStream implements Awaited {

  private final CompletableFuture<Response> future = new CompletableFuture<>();
  private final String sequenceId;
  private final Consumer<ResponseChunk> listener;
  private final List<ResponseChunk> early = new ArrayList<>();
  /** Null until started. */
  private List<String> tokens;
  private int requestPartition = -1;
  private long requestOffset = -1;

  FollowedStream(final String sequenceId, final Consumer<ResponseChunk> listener) {
    this.sequenceId = requireNonNull(sequenceId, "sequenceId");
    this.listener = requireNonNull(listener, "listener");
  }

  /**
   * Starts after the tokens persisted so far: the stream's chunks read since the follower joined,
   * and those to come, go on from the first index after them.
   */
  public synchronized void start(final SequenceView persisted) {
    if (tokens != null) {
      throw new IllegalStateException("The stream of " + sequenceId + " is followed already");
    }
    tokens = new ArrayList<>(persisted.tokens());
    requestPartition = persisted.requestPartition();
    requestOffset = persisted.requestOffset();
    early.forEach(this::apply);
    early.clear();
  }

  /** Completes with the whole stream, persisted tokens included, once its last chunk is read. */
  public CompletableFuture<Response> future() {
    return future;
  }

  /** Stops following (its client went away): the future fails, and nothing more is handed on. */
  public void stop() {
    future.completeExceptionally(new IllegalStateException("the stream of " + sequenceId + " is no longer followed"));
  }

  @Override
  public void fromWorker(final TokenChunk chunk) {
    // The durable stream alone (see the class comment).
  }

  @Override
  public synchronized boolean fromDurable(final ResponseChunk chunk) {
    if (tokens == null) {
      early.add(chunk);
      return false;
    }
    apply(chunk);
    return future.isDone();
  }

  private boolean ofTheSequencesRequest(final ResponseChunk chunk) {
    return requestOffset < 0 || chunk.getRequestOffset() < 0
        || chunk.getRequestPartition() == requestPartition && chunk.getRequestOffset() == requestOffset;
  }

  @Override
  public void fail(final Throwable cause) {
    future.completeExceptionally(cause);
  }

  private void apply(final ResponseChunk chunk) {
    if (future.isDone() || !ofTheSequencesRequest(chunk)) {
      return;
    }
    final int start = chunk.getStartIndex();
    if (start > tokens.size()) {
      future.completeExceptionally(new IllegalStateException("The stream of " + sequenceId + " skipped tokens "
          + tokens.size() + " to " + (start - 1) + " between what token-buffer had persisted and its next chunk"));
      return;
    }
    final List<String> all = chunk.getTokens();
    final List<String> fresh = List.copyOf(all.subList(Math.min(tokens.size() - start, all.size()), all.size()));
    final int from = tokens.size();
    tokens.addAll(fresh);
    if (!fresh.isEmpty() || chunk.getLast()) {
      listener.accept(ResponseChunk.newBuilder(chunk).setStartIndex(from).setTokens(fresh).build());
    }
    if (chunk.getLast()) {
      future.complete(new Response(sequenceId, tokens, chunk, 0));
    }
  }
}
