package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.client.InferenceClient;
import io.zerolayer.contract.client.Response;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.heatmap.HeatmapApp;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.router.Router;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.runtime.ClusterSettings;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.tokenbuffer.TokenBufferApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.serialization.StringDeserializer;
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
    final TopicCatalogue catalogue = cluster.newCatalogue();
    final ClusterSettings settings = cluster.settings(catalogue);
    final Path workDir = cluster.stateDir(catalogue);
    ChildApp tokenBuffer = null;
    try (Fleet fleet = Fleet.start(settings, 2, List.of("zone-a"), GpuProfile.standard(), new SimpleMeterRegistry());
        StreamsApp heatmap = HeatmapApp.start(settings, new HeatmapConfig(Map.of(
            HeatmapConfig.APPLICATION_ID, catalogue.prefix() + "zerolayer-heatmap",
            HeatmapConfig.STATE_DIR, workDir.resolve("heatmap").toString(), HeatmapConfig.HTTP_PORT, 0)), "127.0.0.1");
        Router router = new Router(settings, new RouterConfig(Map.of(RouterConfig.ROUTER_ID, catalogue.prefix() + "r",
            RouterConfig.GROUP_ID, catalogue.prefix() + "routers")), new LatencyAwarePolicy(), TestTenants.UNLIMITED,
            new SimpleMeterRegistry());
        ContractSerdes serdes = new ContractSerdes(settings.serdes());
        RecordCollector<String, ResponseChunk> responses = new RecordCollector<>(settings,
            catalogue.name(Topics.RESPONSES), new StringDeserializer(), serdes.value(Topics.RESPONSES).deserializer());
        InferenceClient client = new InferenceClient(settings, serdes)) {
      tokenBuffer = startTokenBuffer(settings, catalogue, workDir);
      await().atMost(Duration.ofSeconds(60)).until(() -> fleet.instanceIds().stream()
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
      tokenBuffer = startTokenBuffer(settings, catalogue, workDir);

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
    } finally {
      if (tokenBuffer != null) {
        tokenBuffer.close();
      }
    }
  }

  private static ChildApp startTokenBuffer(final ClusterSettings settings, final TopicCatalogue catalogue,
      final Path workDir) throws Exception {
    return ChildApp.start(TokenBufferApp.class, settings, catalogue, workDir.resolve("token-buffer.log"),
        "ZEROLAYER_TOKENBUFFER_HTTP_PORT", Map.of(
            "ZEROLAYER_TOKENBUFFER_APPLICATION_ID", catalogue.prefix() + "zerolayer-token-buffer",
            "ZEROLAYER_TOKENBUFFER_STATE_DIR", workDir.resolve("token-buffer").toString()));
  }
}
