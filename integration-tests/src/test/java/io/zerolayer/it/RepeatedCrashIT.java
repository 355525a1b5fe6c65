package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.heatmap.HeatmapApp;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.router.Router;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.testsupport.Awaits;
import io.zerolayer.testsupport.ChildApp;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.SingleBroker;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each process on a token's path killed with {@code kill -9} ten times at random moments while
 * sequences stream, and started again: every client still sees every token of every sequence
 * once and in order, as it is passed on (the workers' chunks read at once, filled in from the
 * durable stream), and the text is the simulated model's hash chain, which a spliced, repeated or
 * wrongly resumed stream cannot match.
 */
@ExtendWith(TestCluster.class)
class RepeatedCrashIT {

  private static final int KILLS = 10;
  private static final long PACE_MS = 120;

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void shouldGiveEveryClientEveryTokenOnceInOrderWhenTheWorkerIsKilledTenTimes(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-b"), GpuProfile.standard()).start()) {
      final Streams streams = new Streams(rig);
      final ChildApp[] worker = {rig.open(ChildProcesses.fleet(rig))};
      Awaits.routerSees(rig.pipeline(), List.of("proc-0"));

      streams.runWhile(KILLS, () -> {
        worker[0].kill();
        worker[0] = rig.open(ChildProcesses.fleet(rig));
        worker[0].awaitReady(Duration.ofSeconds(60));
      });

      streams.assertEveryStreamWhole();
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void shouldGiveEveryClientEveryTokenOnceInOrderWhenTokenBufferIsKilledTenTimes(
      final TestCluster.Handle cluster) throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(3, List.of("zone-a"), GpuProfile.standard())
        .withoutPipeline().start()) {
      final ClusterSettings settings = rig.settings();
      rig.open(HeatmapApp.start(settings, new HeatmapConfig(SingleBroker.settings(HeatmapConfig.PREFIX,
          Map.of(
          HeatmapConfig.APPLICATION_ID, PipelineNames.heatmapApplicationId(rig.catalogue()),
          HeatmapConfig.STATE_DIR, rig.stateDir().resolve("heatmap").toString(), HeatmapConfig.HTTP_PORT, 0))),
          "127.0.0.1"));
      rig.open(new Router(settings, new RouterConfig(Map.of(RouterConfig.ROUTER_ID, rig.catalogue().prefix() + "r",
          RouterConfig.GROUP_ID, PipelineNames.routerGroup(rig.catalogue()))), new LatencyAwarePolicy(),
          TestTenants.UNLIMITED, new SimpleMeterRegistry()));
      final ChildApp[] tokenBuffer = {rig.open(ChildProcesses.tokenBuffer(rig))};
      tokenBuffer[0].awaitReady(Duration.ofSeconds(120));
      final Streams streams = new Streams(rig);

      streams.runWhile(KILLS, () -> {
        tokenBuffer[0].kill();
        tokenBuffer[0] = rig.open(ChildProcesses.tokenBuffer(rig));
        tokenBuffer[0].awaitReady(Duration.ofSeconds(120));
      });

      streams.assertEveryStreamWhole();
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void shouldGiveEveryClientEveryTokenOnceInOrderWhenARouterIsKilledTenTimes(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(3, List.of("zone-a"), GpuProfile.standard()).start()) {
      final String group = PipelineNames.routerGroup(rig.catalogue());
      final ChildApp[] router = {rig.open(ChildProcesses.router(rig, "t"))};
      router[0].awaitReady(Duration.ofSeconds(60));
      Awaits.groupHasMembersWithPartitions(rig.settings(), group, 2);
      final Streams streams = new Streams(rig);

      streams.runWhile(KILLS, () -> {
        router[0].kill();
        router[0] = rig.open(ChildProcesses.router(rig, "t"));
        router[0].awaitReady(Duration.ofSeconds(60));
        Awaits.groupHasMembersWithPartitions(rig.settings(), group, 2);
      });

      streams.assertEveryStreamWhole();
    }
  }

  /** What is done to a process, and its restart; may throw. */
  private interface Crash {
    void run() throws Exception;
  }

  /** Sequences sent at a steady pace, with every chunk each one's client was handed. */
  private static final class Streams {
    private final Random random = new Random(19);
    private final Map<String, List<ResponseChunk>> seen = new ConcurrentHashMap<>();
    private final Map<String, InferenceRequest> requests = new ConcurrentHashMap<>();
    private final List<CompletableFuture<Response>> answers = new CopyOnWriteArrayList<>();
    private final AtomicInteger sent = new AtomicInteger();
    private final InferenceClient client;

    Streams(final PipelineRig rig) {
      client = rig.open(new InferenceClient(rig.settings(), rig.serdes(),
          chunk -> seen.computeIfAbsent(chunk.getSequenceId(), id -> new CopyOnWriteArrayList<>()).add(chunk)));
    }

    /** Sends sequences throughout, and runs the crash {@code times} times at random moments among them. */
    void runWhile(final int times, final Crash crash) throws Exception {
      for (int kill = 0; kill < times; kill++) {
        final long until = System.currentTimeMillis() + 300 + random.nextInt(1_700);
        while (System.currentTimeMillis() < until) {
          send();
        }
        crash.run();
      }
      final long until = System.currentTimeMillis() + 2_000;
      while (System.currentTimeMillis() < until) {
        send();
      }
    }

    private void send() throws InterruptedException {
      final int i = sent.getAndIncrement();
      final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("crash-" + i).setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("Keep going " + i).setMaxOutputTokens(40 + random.nextInt(160))
          .setSeed(i).setSubmittedAtMs(System.currentTimeMillis()).build();
      requests.put(request.getSequenceId(), request);
      answers.add(client.submit(request));
      TimeUnit.MILLISECONDS.sleep(PACE_MS);
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
}
