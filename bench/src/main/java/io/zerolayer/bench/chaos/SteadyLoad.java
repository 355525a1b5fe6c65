package io.zerolayer.bench.chaos;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sequences of 40 to 200 tokens sent at a steady pace from a thread of its own, with every chunk
 * their client handed on and when the first came. At the end each sequence is checked, token by
 * token, against the simulated model's hash-chained text, which a lost, repeated, reordered or
 * spliced stream cannot match.
 */
public final class SteadyLoad implements AutoCloseable {

  private static final int RETRIES_AT_THE_DOOR = 5;

  private final Random random;
  private final Map<String, List<ResponseChunk>> seen = new ConcurrentHashMap<>();
  private final Map<String, Long> firstChunkAtMs = new ConcurrentHashMap<>();
  private final Map<String, InferenceRequest> requests = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<Response>> answers = new ConcurrentHashMap<>();
  private final List<String> sequenceIds = new CopyOnWriteArrayList<>();
  private final AtomicInteger sent = new AtomicInteger();
  private final AtomicBoolean sending = new AtomicBoolean(true);
  private final InferenceClient client;
  private final String tenantId;
  private final String apiKey;
  private final Duration pace;
  private final CompletableFuture<Void> sender;

  /** Starts sending one sequence every {@code pace}, as {@code tenantId}, until {@link #verdict}. */
  public SteadyLoad(final ClusterSettings settings, final ContractSerdes serdes, final String tenantId,
      final String apiKey, final Duration pace, final long seed) {
    this.tenantId = tenantId;
    this.apiKey = apiKey;
    this.pace = pace;
    this.random = new Random(seed);
    client = new InferenceClient(settings, serdes, chunk -> {
      firstChunkAtMs.putIfAbsent(chunk.getSequenceId(), System.currentTimeMillis());
      seen.computeIfAbsent(chunk.getSequenceId(), id -> new CopyOnWriteArrayList<>()).add(chunk);
    });
    sender = CompletableFuture.runAsync(this::sendWhileRunning);
  }

  private void sendWhileRunning() {
    try {
      while (sending.get()) {
        final int i = sent.getAndIncrement();
        sequenceIds.add("chaos-" + i);
        send(InferenceRequest.newBuilder().setSequenceId("chaos-" + i).setTenantId(tenantId).setApiKey(apiKey)
            .setPrompt("Keep going " + i).setMaxOutputTokens(40 + random.nextInt(160)).setSeed(i)
            .setSubmittedAtMs(System.currentTimeMillis()).build());
        TimeUnit.MILLISECONDS.sleep(pace.toMillis());
      }
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void send(final InferenceRequest request) {
    requests.put(request.getSequenceId(), request);
    answers.put(request.getSequenceId(), client.submit(request));
  }

  /** How many sequences were sent so far. */
  public int sent() {
    return sent.get();
  }

  /**
   * Milliseconds from {@code sinceMs} until the first chunk of a sequence sent at or after it
   * reached its client: how long the pipeline took to serve again after a fault made then.
   */
  OptionalLong servingAgainAfter(final long sinceMs) {
    return requests.values().stream().filter(request -> request.getSubmittedAtMs() >= sinceMs)
        .map(request -> firstChunkAtMs.get(request.getSequenceId())).filter(at -> at != null)
        .mapToLong(at -> at - sinceMs).min();
  }

  /**
   * Stops sending and checks every sequence. All answers are awaited at once against one
   * deadline; a request throttled at the door (before any token) is sent again after its retry
   * time, as a client does, and awaited against a fresh deadline.
   *
   * @param wait how long, after the last sequence was sent, every answer may take
   */
  public LoadVerdict verdict(final Duration wait) throws InterruptedException {
    sending.set(false);
    try {
      sender.get(1, TimeUnit.MINUTES);
    } catch (final ExecutionException | TimeoutException e) {
      throw new IllegalStateException("The load's sender did not stop: " + e.getMessage(), e);
    }
    final Map<String, String> latest = new LinkedHashMap<>();
    sequenceIds.forEach(id -> latest.put(id, id));
    final Map<String, Response> responses = awaitAll(latest.values(), wait);
    int resent = 0;
    for (int retry = 1; retry <= RETRIES_AT_THE_DOOR; retry++) {
      final List<String> throttled = latest.keySet().stream()
          .filter(first -> throttledAtTheDoor(responses.get(latest.get(first)))).toList();
      if (throttled.isEmpty()) {
        break;
      }
      TimeUnit.MILLISECONDS.sleep(throttled.stream()
          .mapToLong(first -> responses.get(latest.get(first)).last().getRetryAfterMs()).max().orElse(0));
      for (final String first : throttled) {
        resent++;
        final String id = first + "-again-" + retry;
        latest.put(first, id);
        send(InferenceRequest.newBuilder(requests.get(first)).setSequenceId(id)
            .setSubmittedAtMs(System.currentTimeMillis()).build());
      }
      responses.putAll(awaitAll(throttled.stream().map(latest::get).toList(), wait));
    }
    int lost = 0;
    int duplicated = 0;
    int reordered = 0;
    int spliced = 0;
    final List<LoadVerdict.Unanswered> unanswered = new ArrayList<>();
    for (final String id : latest.values()) {
      final Response response = responses.get(id);
      if (response == null || response.outcome() == RoutingOutcome.REJECTED || throttledAtTheDoor(response)) {
        unanswered.add(new LoadVerdict.Unanswered(id, describe(id, response)));
        continue;
      }
      final StreamCheck check = StreamCheck.of(requests.get(id), seen.getOrDefault(id, List.of()));
      lost += check.lost() ? 1 : 0;
      duplicated += check.duplicated() ? 1 : 0;
      reordered += check.reordered() ? 1 : 0;
      spliced += check.spliced() ? 1 : 0;
    }
    return new LoadVerdict(sequenceIds.size(), lost, duplicated, reordered, spliced, unanswered, resent);
  }

  /** Every answer that comes before one deadline; a sequence without one is left out. */
  private Map<String, Response> awaitAll(final Collection<String> sequenceIds, final Duration wait)
      throws InterruptedException {
    final long deadline = System.nanoTime() + wait.toNanos();
    final Map<String, Response> answered = new HashMap<>();
    for (final String id : sequenceIds) {
      try {
        answered.put(id, answers.get(id).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
      } catch (final ExecutionException | TimeoutException e) {
        // unanswered: described by the verdict
      }
    }
    return answered;
  }

  /** What the client of an unanswered sequence had: when it was sent, its chunks and the last of them. */
  private String describe(final String sequenceId, final Response response) {
    final InferenceRequest request = requests.get(sequenceId);
    final List<ResponseChunk> chunks = seen.getOrDefault(sequenceId, List.of());
    final String last = chunks.isEmpty() ? "no chunk" : describe(chunks.get(chunks.size() - 1));
    final String answer = response == null ? "no final answer" : "final answer " + response.outcome()
        + (response.last().getReason() == null ? "" : " (" + response.last().getReason() + ")");
    return "sent at %d (%d tokens asked): %s; %d chunks, %d tokens; last %s".formatted(
        request.getSubmittedAtMs(), request.getMaxOutputTokens(), answer, chunks.size(),
        chunks.stream().mapToInt(chunk -> chunk.getTokens().size()).sum(), last);
  }

  private static String describe(final ResponseChunk chunk) {
    return "from %s epoch %d at index %d (+%d)%s at %d".formatted(chunk.getInstanceId(), chunk.getEpoch(),
        chunk.getStartIndex(), chunk.getTokens().size(), chunk.getLast() ? " final " + chunk.getOutcome() : "",
        chunk.getEmittedAtMs());
  }

  private static boolean throttledAtTheDoor(final Response response) {
    return response != null && response.outcome() == RoutingOutcome.THROTTLED && response.tokens().isEmpty()
        && response.last().getEpoch() == 0;
  }

  @Override
  public void close() {
    sending.set(false);
    client.close();
  }
}
