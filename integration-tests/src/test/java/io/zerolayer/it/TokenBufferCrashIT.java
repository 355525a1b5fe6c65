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
import org.apache.kafka.common.serialization.StringDeserializer;
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
    Process tokenBuffer = null;
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

      // Given a long sequence streaming through token-buffer
      final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("survives").setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("Tell a very long story.").setMaxOutputTokens(1000).setSeed(3)
          .setSubmittedAtMs(System.currentTimeMillis()).build();
      final CompletableFuture<Response> answer = client.submit(request);
      responses.awaitUntil(records -> records.stream().filter(r -> r.key().equals("survives"))
          .mapToInt(r -> r.value().getTokens().size()).sum() >= 40, Duration.ofSeconds(90));

      // When token-buffer is killed with kill -9 and started again on its state
      new ProcessBuilder("kill", "-9", Long.toString(tokenBuffer.pid())).start().waitFor();
      tokenBuffer.waitFor();
      tokenBuffer = startTokenBuffer(settings, catalogue, workDir);

      // Then the client reads every token exactly once, in order (the assembler refuses gaps and repeats)
      final Response response = answer.get(3, TimeUnit.MINUTES);
      assertThat(response.text()).isEqualTo(ExpectedText.of(request));
      assertThat(responses.awaitUntil(records -> records.stream()
          .anyMatch(r -> r.key().equals("survives") && r.value().getLast()), Duration.ofSeconds(30)).stream()
          .filter(r -> r.key().equals("survives") && r.value().getLast())).hasSize(1);
    } finally {
      if (tokenBuffer != null) {
        tokenBuffer.destroyForcibly();
      }
    }
  }

  private static Process startTokenBuffer(final ClusterSettings settings, final TopicCatalogue catalogue,
      final Path workDir) throws Exception {
    final ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
        "-cp", System.getProperty("java.class.path"), TokenBufferApp.class.getName())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(workDir.resolve("token-buffer.log").toFile()));
    final Map<String, String> env = builder.environment();
    env.put("KAFKA_BOOTSTRAP_SERVERS", settings.bootstrapServers());
    env.put("SCHEMA_REGISTRY_URL", settings.serdes().registryUrl());
    env.put("ZEROLAYER_TOPIC_PREFIX", catalogue.prefix());
    env.put("ZEROLAYER_TOKENBUFFER_APPLICATION_ID", catalogue.prefix() + "zerolayer-token-buffer");
    env.put("ZEROLAYER_TOKENBUFFER_STATE_DIR", workDir.resolve("token-buffer").toString());
    env.put("ZEROLAYER_TOKENBUFFER_HTTP_PORT", "0");
    return builder.start();
  }
}
