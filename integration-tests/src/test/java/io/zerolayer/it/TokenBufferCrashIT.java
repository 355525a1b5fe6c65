package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.heatmap.HeatmapApp;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.router.Router;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.testsupport.ChildApp;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.SingleBroker;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** token-buffer itself killed with {@code kill -9} mid-stream and restarted from its changelog. */
@ExtendWith(TestCluster.class)
class TokenBufferCrashIT {

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void shouldDeliverEveryTokenExactlyOnceInOrderAcrossATokenBufferCrash(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard())
        .withoutPipeline().start()) {
      final ClusterSettings settings = rig.settings();
      final String prefix = rig.catalogue().prefix();
      rig.open(HeatmapApp.start(settings, new HeatmapConfig(SingleBroker.settings(HeatmapConfig.PREFIX,
          Map.of(
          HeatmapConfig.APPLICATION_ID, PipelineNames.heatmapApplicationId(rig.catalogue()),
          HeatmapConfig.STATE_DIR, rig.stateDir().resolve("heatmap").toString(), HeatmapConfig.HTTP_PORT, 0))),
          "127.0.0.1"));
      final Router router = rig.open(new Router(settings, new RouterConfig(Map.of(RouterConfig.ROUTER_ID,
          prefix + "r", RouterConfig.GROUP_ID, prefix + "routers")), new LatencyAwarePolicy(), TestTenants.UNLIMITED,
          new SimpleMeterRegistry()));
      final RecordCollector<String, ResponseChunk> responses = rig.responses();
      final InferenceClient client = rig.client();
      ChildApp tokenBuffer = rig.open(ChildProcesses.tokenBuffer(rig));
      await().atMost(Duration.ofSeconds(60)).until(() -> rig.fleet().instanceIds().stream()
          .allMatch(id -> router.heatmap().row(id) != null));
      tokenBuffer.awaitReady(Duration.ofSeconds(120));

      // Given a long sequence streaming through token-buffer
      final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("survives").setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("Tell a very long story.").setMaxOutputTokens(1000).setSeed(3)
          .setSubmittedAtMs(System.currentTimeMillis()).build();
      final CompletableFuture<Response> answer = client.submit(request);
      try {
        responses.awaitUntil(records -> records.stream().filter(r -> r.key().equals("survives"))
            .mapToInt(r -> r.value().getTokens().size()).sum() >= 40, Duration.ofSeconds(90));
      } catch (final ConditionTimeoutException e) {
        throw tokenBuffer.failure(e);
      }

      // When token-buffer is killed with kill -9 and started again on its state
      tokenBuffer.kill();
      tokenBuffer = rig.open(ChildProcesses.tokenBuffer(rig));

      // Then the client reads every token exactly once, in order (the assembler refuses gaps and repeats)
      final Response response;
      try {
        response = answer.get(3, TimeUnit.MINUTES);
      } catch (final TimeoutException e) {
        throw tokenBuffer.failure(e);
      }
      assertThat(response.text()).isEqualTo(ExpectedText.of(request));
      assertThat(responses.awaitUntil(records -> records.stream()
          .anyMatch(r -> r.key().equals("survives") && r.value().getLast()), Duration.ofSeconds(30)).stream()
          .filter(r -> r.key().equals("survives") && r.value().getLast())).hasSize(1);
    }
  }
}
