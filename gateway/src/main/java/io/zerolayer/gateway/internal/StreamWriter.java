package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

import io.javalin.http.Context;
import io.zerolayer.contract.avro.ResponseChunk;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Writes one answer as server-sent events in its dialect, as its chunks come: the opening events,
 * a delta per chunk whose event id is the number of tokens sent so far (what a reconnecting
 * client sends back as {@code Last-Event-ID}), and the closing events or an error. When the client
 * goes away the engine is told to stop, unless the client asked to be able to reconnect
 * ({@value #RESUMABLE}: true), for which the sequence goes on into the durable log.
 */
final class StreamWriter {

  /** The request header by which a client that may reconnect keeps its sequence going when it goes away. */
  static final String RESUMABLE = "x-zerolayer-resumable";

  private final Cancels cancels;
  private final Duration idleTimeout;

  StreamWriter(final Cancels cancels, final Duration idleTimeout) {
    this.cancels = requireNonNull(cancels, "cancels");
    this.idleTimeout = requireNonNull(idleTimeout, "idleTimeout");
  }

  /**
   * @param first the first chunk to write (the first tokens, or the persisted ones of a reconnect)
   * @param delivered tokens the client had before {@code first}
   * @param includeUsage whether an OpenAI stream ends with a usage chunk
   * @param abandon stops the reading of the stream for this writer, which gives up on it
   */
  void write(final Context ctx, final Dialect dialect, final Answer answer, final ChunkQueue queue,
      final ResponseChunk first, final int delivered, final boolean includeUsage, final Runnable abandon)
      throws InterruptedException {
    final boolean resumable = "true".equalsIgnoreCase(ctx.header(RESUMABLE));
    HttpAnswers.served(ctx, answer);
    ctx.status(200);
    ctx.res().setContentType("text/event-stream");
    ctx.res().setHeader("Cache-Control", "no-cache");
    ctx.res().setHeader("X-Accel-Buffering", "no");
    final Owner owner = new Owner();
    try {
      final OutputStream out = ctx.res().getOutputStream();
      send(out, dialect.start(answer));
      int sent = delivered;
      ResponseChunk chunk = first;
      while (true) {
        owner.follow(chunk);
        if (!chunk.getTokens().isEmpty()) {
          sent += chunk.getTokens().size();
          send(out, List.of(dialect.delta(answer, String.join("", chunk.getTokens())).withId(Integer.toString(sent))));
        }
        if (chunk.getLast()) {
          final Optional<Failure> failed = Outcomes.failure(chunk);
          send(out, failed.isPresent() ? List.of(dialect.streamError(failed.get()))
              : dialect.end(answer, Outcomes.end(chunk, sent), includeUsage));
          return;
        }
        final ChunkQueue.Item next = queue.next(idleTimeout);
        if (!(next instanceof ChunkQueue.Part part)) {
          abandon.run();
          send(out, List.of(dialect.streamError(Outcomes.broken(next, idleTimeout))));
          return;
        }
        chunk = part.chunk();
      }
    } catch (final IOException e) {
      // The client went away: unless it may come back for the rest, the engine stops generating it.
      abandon.run();
      if (!resumable) {
        cancels.clientGone(answer.requestId(), owner.instanceId);
      }
    }
  }

  private static void send(final OutputStream out, final List<SseEvent> events) throws IOException {
    for (final SseEvent event : events) {
      out.write(event.bytes());
    }
    out.flush();
  }

  /** The instance that generates the stream now, which hears the CANCEL first. */
  private static final class Owner {
    private String instanceId;

    private void follow(final ResponseChunk chunk) {
      if (chunk.getInstanceId() != null) {
        instanceId = chunk.getInstanceId();
      }
    }
  }
}
