package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

import io.javalin.http.Context;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.zerolayer.client.InferenceClient;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.runtime.tenant.TenantSignature;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries one HTTP request onto the ingress topic and its response stream back: waits for the
 * first token or the outcome (which decides the status), then writes the tokens as server-sent
 * events as they come ({@link StreamWriter}), or the whole answer at its end.
 */
public final class Relay {

  /** The header that names a conversation: its requests stay on the instance that holds its context. */
  public static final String SESSION = "x-zerolayer-session";

  private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

  private final InferenceClient client;
  private final Door door;
  private final TenantSignature signature;
  private final StreamWriter streams;
  private final Duration firstTokenTimeout;
  private final Duration idleTimeout;
  private final Timer firstToken;

  /**
   * @param firstTokenTimeout how long to wait for the first token or the outcome
   * @param idleTimeout how long a started answer may go without a token
   */
  public Relay(final InferenceClient client, final Cancels cancels, final Door door, final TenantSignature signature,
      final Duration firstTokenTimeout, final Duration idleTimeout, final MeterRegistry meters) {
    this.client = requireNonNull(client, "client");
    this.door = requireNonNull(door, "door");
    this.signature = requireNonNull(signature, "signature");
    this.firstTokenTimeout = requireNonNull(firstTokenTimeout, "firstTokenTimeout");
    this.idleTimeout = requireNonNull(idleTimeout, "idleTimeout");
    this.streams = new StreamWriter(cancels, idleTimeout);
    firstToken = Timer.builder("zerolayer.gateway.first.token")
        .description("From a request's arrival to its first token or outcome at the gateway")
        .publishPercentiles(0.5, 0.99)
        .register(meters);
  }

  /**
   * Serves a request of a tenant the gateway authenticated, or refuses it at once when the door
   * is full.
   */
  public void serve(final Context ctx, final Dialect dialect, final String tenantId, final GatewayRequest request)
      throws InterruptedException {
    final Optional<Door.Pass> pass = door.enter();
    if (pass.isEmpty()) {
      HttpAnswers.fail(ctx, dialect, door.refusal(), null);
      return;
    }
    try (Door.Pass admitted = pass.get()) {
      relay(ctx, dialect, tenantId, request, admitted);
    }
  }

  private void relay(final Context ctx, final Dialect dialect, final String tenantId, final GatewayRequest request,
      final Door.Pass pass) throws InterruptedException {
    final long receivedNanos = System.nanoTime();
    final long receivedMs = System.currentTimeMillis();
    final String requestId = client.newSequenceId(SequenceIds.prefix(tenantId));
    final ChunkQueue queue = new ChunkQueue();
    client.submit(record(requestId, tenantId, request, ctx.header(SESSION), receivedMs), chunk -> {
      pass.arrived(chunk);
      queue.offer(chunk);
    }, pass::started).whenComplete((response, error) -> {
      if (error != null) {
        queue.fail(error);
      }
    });
    final ChunkQueue.Item first = queue.next(firstTokenTimeout);
    firstToken.record(System.nanoTime() - receivedNanos, TimeUnit.NANOSECONDS);
    if (!(first instanceof ChunkQueue.Part part)) {
      client.abandon(requestId);
      final Failure broken = Outcomes.broken(first, firstTokenTimeout);
      LOG.warn("Answered {} with {}: {}", requestId, broken.kind(), broken.message());
      HttpAnswers.fail(ctx, dialect, broken, requestId);
      return;
    }
    final ResponseChunk chunk = part.chunk();
    final Optional<Failure> refused = chunk.getLast() && chunk.getTokens().isEmpty() ? Outcomes.failure(chunk)
        : Optional.empty();
    if (refused.isPresent()) {
      HttpAnswers.fail(ctx, dialect, refused.get(), requestId);
      return;
    }
    final Answer answer = new Answer(requestId, request.model(), receivedMs / 1000, chunk.getOutcome(),
        chunk.getInstanceId(), chunk.getInputTokens());
    if (request.stream()) {
      streams.write(ctx, dialect, answer, queue, chunk, 0, request.includeUsage(), () -> client.abandon(requestId));
    } else {
      whole(ctx, dialect, answer, queue, chunk);
    }
  }

  /** @param session the conversation's key, from the {@value #SESSION} header; null for none */
  private InferenceRequest record(final String requestId, final String tenantId, final GatewayRequest request,
      final String session, final long nowMs) {
    return InferenceRequest.newBuilder()
        .setSequenceId(requestId)
        .setTenantId(tenantId)
        .setTenantSignature(signature.sign(requestId, tenantId, nowMs))
        .setModel(request.model())
        .setPrompt(request.prompt())
        .setMessages(request.messages())
        .setMaxOutputTokens(request.maxTokens())
        .setIgnoreEos(request.ignoreEos())
        .setSeed(request.seed())
        .setTraceId(requestId)
        .setSessionId(session == null || session.isBlank() ? null : session)
        .setSubmittedAtMs(nowMs)
        .build();
  }

  private void whole(final Context ctx, final Dialect dialect, final Answer answer, final ChunkQueue queue,
      final ResponseChunk first) throws InterruptedException {
    final StringBuilder text = new StringBuilder();
    int tokens = 0;
    ResponseChunk chunk = first;
    while (true) {
      chunk.getTokens().forEach(text::append);
      tokens += chunk.getTokens().size();
      if (chunk.getLast()) {
        final Optional<Failure> failed = Outcomes.failure(chunk);
        if (failed.isPresent()) {
          HttpAnswers.fail(ctx, dialect, failed.get(), answer.requestId());
        } else {
          HttpAnswers.served(ctx, answer);
          ctx.status(200).contentType("application/json")
              .result(Json.line(dialect.complete(answer, text.toString(), Outcomes.end(chunk, tokens))));
        }
        return;
      }
      final ChunkQueue.Item next = queue.next(idleTimeout);
      if (!(next instanceof ChunkQueue.Part part)) {
        client.abandon(answer.requestId());
        HttpAnswers.fail(ctx, dialect, Outcomes.broken(next, idleTimeout), answer.requestId());
        return;
      }
      chunk = part.chunk();
    }
  }

  /** Writes a reconnected stream: see {@link Reconnects}. */
  StreamWriter streams() {
    return streams;
  }
}
