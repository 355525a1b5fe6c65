package io.zerolayer.bench.chaos;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import java.time.Duration;
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
   * Stops sending and checks every sequence; a request throttled at the door (before any token)
   * is sent again after its retry time, as a client does.
   *
   * @param wait how long to wait for each answer
   */
  public LoadVerdict verdict(final Duration wait) throws InterruptedException {
    sending.set(false);
    try {
      sender.get(1, TimeUnit.MINUTES);
    } catch (final ExecutionException | TimeoutException e) {
      throw new IllegalStateException("The load's sender did not stop: " + e.getMessage(), e);
    }
    int lost = 0;
    int duplicated = 0;
    int reordered = 0;
    int spliced = 0;
    int unanswered = 0;
    int resent = 0;
    for (final String first : sequenceIds) {
      String id = first;
      Response response = await(id, wait);
      for (int retry = 1; retry <= RETRIES_AT_THE_DOOR && throttledAtTheDoor(response); retry++) {
        resent++;
        TimeUnit.MILLISECONDS.sleep(response.last().getRetryAfterMs());
        id = first + "-again-" + retry;
        send(InferenceRequest.newBuilder(requests.get(first)).setSequenceId(id)
            .setSubmittedAtMs(System.currentTimeMillis()).build());
        response = await(id, wait);
      }
      if (response == null || response.outcome() == RoutingOutcome.REJECTED || throttledAtTheDoor(response)) {
        unanswered++;
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

  private Response await(final String sequenceId, final Duration wait) throws InterruptedException {
    try {
      return answers.get(sequenceId).get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (final ExecutionException | TimeoutException e) {
      return null;
    }
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
