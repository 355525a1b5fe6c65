package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sequences sent at a steady pace while faults are made among them, with every chunk each one's
 * client was handed and when its first chunk came; at the end, each sequence's text is checked
 * against the simulated model's hash chain, which a spliced, repeated or wrongly resumed stream
 * cannot match.
 */
final class SteadyStreams {

  /** A fault and its repair; may throw. */
  interface Fault {
    void run() throws Exception;
  }

  /** The pause between two sequences sent, unless set. */
  static final Duration PACE = Duration.ofMillis(120);

  private final Random random = new Random(19);
  private final Map<String, List<ResponseChunk>> seen = new ConcurrentHashMap<>();
  private final Map<String, Long> firstChunkAtMs = new ConcurrentHashMap<>();
  private final Map<String, InferenceRequest> requests = new ConcurrentHashMap<>();
  private final List<CompletableFuture<Response>> answers = new CopyOnWriteArrayList<>();
  private final AtomicInteger sent = new AtomicInteger();
  private final InferenceClient client;
  private final Duration pace;

  /** Sequences sent one every {@link #PACE}. */
  SteadyStreams(final PipelineRig rig) {
    this(rig, PACE);
  }

  /** Sequences sent one every {@code pace}. */
  SteadyStreams(final PipelineRig rig, final Duration pace) {
    this.pace = pace;
    client = rig.open(new InferenceClient(rig.settings(), rig.serdes(), chunk -> {
      firstChunkAtMs.putIfAbsent(chunk.getSequenceId(), System.currentTimeMillis());
      seen.computeIfAbsent(chunk.getSequenceId(), id -> new CopyOnWriteArrayList<>()).add(chunk);
    }));
  }

  /** Sends sequences throughout, and makes the fault {@code times} times at random moments among them. */
  void runWhile(final int times, final Fault fault) throws Exception {
    for (int i = 0; i < times; i++) {
      sendFor(Duration.ofMillis(300 + random.nextInt(1_700)));
      fault.run();
    }
    sendFor(Duration.ofSeconds(2));
  }

  /**
   * Sends sequences at the steady pace on a thread of its own, throughout, while the fault is made
   * {@code times} times, 300 to 2,000 ms after the previous one was repaired: the load does not
   * wait for a repair, so {@link #servingAgainAfter} tells how long clients went unserved.
   */
  void runAlongside(final int times, final Fault fault) throws Exception {
    final AtomicBoolean sending = new AtomicBoolean(true);
    final CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
      try {
        while (sending.get()) {
          send();
        }
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    try {
      for (int i = 0; i < times; i++) {
        TimeUnit.MILLISECONDS.sleep(300 + random.nextInt(1_700));
        fault.run();
      }
      TimeUnit.SECONDS.sleep(2);
    } finally {
      sending.set(false);
      sender.get(1, TimeUnit.MINUTES);
    }
  }

  /** Sends sequences at the steady pace for {@code length}. */
  private void sendFor(final Duration length) throws InterruptedException {
    final long until = System.currentTimeMillis() + length.toMillis();
    while (System.currentTimeMillis() < until) {
      send();
    }
  }

  /** How many sequences were sent so far. */
  int sent() {
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

  private void send() throws InterruptedException {
    final int i = sent.getAndIncrement();
    final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("steady-" + i).setTenantId("t")
        .setApiKey(TestTenants.key("t")).setPrompt("Keep going " + i).setMaxOutputTokens(40 + random.nextInt(160))
        .setSeed(i).setSubmittedAtMs(System.currentTimeMillis()).build();
    requests.put(request.getSequenceId(), request);
    answers.add(client.submit(request));
    TimeUnit.MILLISECONDS.sleep(pace.toMillis());
  }

  /** Every sequence's answer and the chunks its client was handed hold its whole text, each token once, in order. */
  void assertEveryStreamWhole() throws Exception {
    final List<Response> responses = new ArrayList<>();
    for (final CompletableFuture<Response> answer : answers) {
      responses.add(servedOrSentAgain(answer.get(3, TimeUnit.MINUTES)));
    }
    assertThat(responses).hasSize(sent.get()).allSatisfy(response -> {
      final String expected = ExpectedText.of(requests.get(response.sequenceId()));
      assertThat(response.text()).as("text of %s", response.sequenceId()).isEqualTo(expected);
      final List<ResponseChunk> chunks = seen.get(response.sequenceId());
      final StringBuilder streamed = new StringBuilder();
      int next = 0;
      for (final ResponseChunk chunk : chunks) {
        assertThat(chunk.getStartIndex()).as("chunk of %s", response.sequenceId()).isEqualTo(next);
        chunk.getTokens().forEach(streamed::append);
        next += chunk.getTokens().size();
      }
      assertThat(streamed.toString()).as("stream of %s", response.sequenceId()).isEqualTo(expected);
      assertThat(chunks.get(chunks.size() - 1).getLast()).isTrue();
    });
  }

  /**
   * The answer, or, for a request throttled at the door (before any token: the heatmap had every
   * instance out of service at that moment, as a process starting beside them on this busy
   * machine can make it), the answer to sending it again after its retry time, as a client does.
   */
  private Response servedOrSentAgain(final Response first) throws Exception {
    Response response = first;
    for (int retry = 1; retry <= 5 && throttledAtTheDoor(response); retry++) {
      assertThat(response.last().getRetryAfterMs()).as("retry time of %s", response.sequenceId()).isPositive();
      TimeUnit.MILLISECONDS.sleep(response.last().getRetryAfterMs());
      final InferenceRequest again = InferenceRequest.newBuilder(requests.get(first.sequenceId()))
          .setSequenceId(first.sequenceId() + "-again-" + retry).setSubmittedAtMs(System.currentTimeMillis()).build();
      requests.put(again.getSequenceId(), again);
      response = client.submit(again).get(3, TimeUnit.MINUTES);
    }
    return response;
  }

  private static boolean throttledAtTheDoor(final Response response) {
    return response.outcome() == RoutingOutcome.THROTTLED && response.tokens().isEmpty()
        && response.last().getEpoch() == 0;
  }
}
