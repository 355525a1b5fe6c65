package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

import io.javalin.http.Context;
import io.zerolayer.client.FollowedStream;
import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.SequenceQuery;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.sequence.SequenceView;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A client that lost its stream takes it up again, on any gateway replica: the tokens after the
 * last event id it received, read back from the durable per-sequence log (token-buffer's store),
 * then the rest as it comes. Each token reaches the client once.
 */
public final class Reconnects {

  private static final Set<String> RUNNING = Set.of("PENDING", "STREAMING");

  private final InferenceClient client;
  private final SequenceQuery sequences;
  private final StreamWriter streams;

  public Reconnects(final InferenceClient client, final SequenceQuery sequences, final Relay relay) {
    this.client = requireNonNull(client, "client");
    this.sequences = requireNonNull(sequences, "sequences");
    this.streams = relay.streams();
  }

  /**
   * Streams the request's tokens after the first {@code received}, in the dialect's events.
   *
   * @param model the model to name in the events (the stored sequence does not say)
   */
  public void resume(final Context ctx, final Dialect dialect, final String requestId, final int received,
      final String model) throws InterruptedException {
    final ChunkQueue queue = new ChunkQueue();
    final FollowedStream followed;
    try {
      // Follow before reading the store back, so that no chunk falls between the two.
      followed = client.follow(requestId, chunk -> queue.offer(after(chunk, received)));
    } catch (final IllegalArgumentException e) {
      HttpAnswers.fail(ctx, dialect, Failure.of(Failure.Kind.BAD_REQUEST, "the stream of " + requestId
          + " is being taken up on another connection to this gateway already; close that one first"), requestId);
      return;
    } catch (final IllegalStateException e) {
      HttpAnswers.fail(ctx, dialect, new Failure(Failure.Kind.OVERLOADED, "the gateway cannot read streams now: "
          + e.getMessage(), null, 1_000L), requestId);
      return;
    }
    followed.future().whenComplete((response, error) -> {
      if (error != null) {
        queue.fail(error);
      }
    });
    final Optional<SequenceView> view;
    try {
      view = sequences.find(requestId);
    } catch (final SequenceQuery.SequenceQueryException e) {
      followed.stop();
      HttpAnswers.fail(ctx, dialect, new Failure(Failure.Kind.OVERLOADED, "the stream cannot be read back now: "
          + e.getMessage(), null, 1_000L), requestId);
      return;
    }
    if (view.isEmpty()) {
      followed.stop();
      HttpAnswers.fail(ctx, dialect, notFound(requestId), requestId);
      return;
    }
    final ResponseChunk first = persisted(view.get(), received);
    if (first.getLast() && received > view.get().tokens().size()) {
      followed.stop();
      HttpAnswers.fail(ctx, dialect, new Failure(Failure.Kind.BAD_REQUEST, "Last-Event-ID " + received
          + " is past the " + view.get().tokens().size() + " tokens " + requestId + " has", "Last-Event-ID", null),
          requestId);
      return;
    }
    followed.start(view.get());
    if (first.getLast()) {
      followed.stop();
    }
    final Answer answer = new Answer(requestId, model, System.currentTimeMillis() / 1000, first.getOutcome(),
        first.getInstanceId(), 0);
    streams.write(ctx, dialect, answer, queue, first, received, false, followed::stop);
  }

  /** Whom a reconnect to another tenant's request, or to one that does not exist, is told: the same. */
  public static Failure notFound(final String requestId) {
    return new Failure(Failure.Kind.NOT_FOUND, "no stream " + requestId + " for this API key", null, null);
  }

  /**
   * The part of a chunk after the first {@code received} tokens, which the client has: token-buffer
   * may not have persisted them all yet when the client comes back, so they may come in the stream.
   */
  private static ResponseChunk after(final ResponseChunk chunk, final int received) {
    final int end = chunk.getStartIndex() + chunk.getTokens().size();
    if (chunk.getStartIndex() >= received) {
      return chunk;
    }
    final int from = Math.min(received, end);
    return ResponseChunk.newBuilder(chunk).setStartIndex(from)
        .setTokens(List.copyOf(chunk.getTokens().subList(from - chunk.getStartIndex(), chunk.getTokens().size())))
        .build();
  }

  /** The tokens after {@code received} that the store holds, as a chunk; the last when the sequence ended. */
  private static ResponseChunk persisted(final SequenceView view, final int received) {
    final boolean ended = !RUNNING.contains(view.status());
    final List<String> tokens = view.tokens();
    return ResponseChunk.newBuilder()
        .setSequenceId(view.sequenceId())
        .setStartIndex(received)
        .setTokens(List.copyOf(tokens.subList(Math.min(received, tokens.size()), tokens.size())))
        .setLast(ended)
        .setFinishReason(ended ? ("FAILED".equals(view.status()) ? "error" : "stop") : null)
        .setOutcome(view.outcome() == null ? null : RoutingOutcome.valueOf(view.outcome()))
        .setInstanceId(view.owner())
        .setEpoch(view.epoch())
        .setOutputTokens(tokens.size())
        .setEmittedAtMs(System.currentTimeMillis())
        .build();
  }
}
