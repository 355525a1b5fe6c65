package io.zerolayer.fleet.load;

import io.zerolayer.contract.avro.RoutingOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** A request sender that holds every request until the test answers it, on the test's clock. */
final class FakeSender implements RequestSender {

  private final LoadScheduler clock;
  private final Map<String, CompletableFuture<Reply>> open = new LinkedHashMap<>();
  private final List<String> sent = new ArrayList<>();
  private final List<Long> sentAtNanos = new ArrayList<>();

  FakeSender(final LoadScheduler clock) {
    this.clock = clock;
  }

  @Override
  public CompletableFuture<Reply> send(final String sequenceId, final RequestSpec spec) {
    final CompletableFuture<Reply> reply = new CompletableFuture<>();
    open.put(sequenceId, reply);
    sent.add(sequenceId);
    sentAtNanos.add(clock.nanoTime());
    return reply;
  }

  /** Sequence ids sent, in order. */
  List<String> sent() {
    return List.copyOf(sent);
  }

  /** When each was sent, on the test's clock. */
  List<Long> sentAtNanos() {
    return List.copyOf(sentAtNanos);
  }

  /** Requests neither answered nor given up on. */
  List<String> waiting() {
    return open.entrySet().stream().filter(e -> !e.getValue().isDone()).map(Map.Entry::getKey).toList();
  }

  /** Whether the load gave up on (cancelled) a request. */
  boolean cancelled(final String sequenceId) {
    return open.get(sequenceId).isCancelled();
  }

  /** Answers a request now with {@code tokens} tokens in one final chunk, served directly by {@code instance}. */
  void answer(final String sequenceId, final int tokens, final String instance) {
    open.get(sequenceId).complete(new Reply(List.of(new ChunkArrival(clock.nanoTime(), tokens, instance, 1)),
        RoutingOutcome.DIRECT, "stop", null, null));
  }

  /** Answers every waiting request now. */
  void answerAll(final int tokens) {
    waiting().forEach(id -> answer(id, tokens, "gpu-0"));
  }

  /** Throttles a request now, with a retry-after. */
  void throttle(final String sequenceId, final Duration retryAfter) {
    open.get(sequenceId).complete(new Reply(List.of(new ChunkArrival(clock.nanoTime(), 0, null, 0)),
        RoutingOutcome.THROTTLED, "throttled", "tenant over its rate", retryAfter.toMillis()));
  }
}
