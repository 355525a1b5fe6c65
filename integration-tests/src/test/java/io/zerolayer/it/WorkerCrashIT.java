package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.client.InferenceClient;
import io.zerolayer.contract.client.Response;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.FleetApp;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.runtime.ClusterSettings;
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

/** A worker process killed with {@code kill -9} mid-stream: the sequence finishes on another instance. */
@ExtendWith(TestCluster.class)
class WorkerCrashIT {

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void shouldGiveTheClientTheSameTextAsAnUninterruptedRunWhenItsWorkerProcessIsKilled(
      final TestCluster.Handle cluster) throws Exception {
    final TopicCatalogue catalogue = cluster.newCatalogue();
    final ClusterSettings settings = cluster.settings(catalogue);
    final Path workDir = cluster.stateDir(catalogue);
    ChildApp doomed = null;
    try (Pipeline pipeline = Pipeline.start(settings, workDir, false, TestTenants.UNLIMITED);
        ContractSerdes serdes = new ContractSerdes(settings.serdes());
        DecisionLog decisions = new DecisionLog(settings, serdes);
        RecordCollector<String, ResponseChunk> responses = new RecordCollector<>(settings,
            catalogue.name(Topics.RESPONSES), new StringDeserializer(), serdes.value(Topics.RESPONSES).deserializer());
        InferenceClient client = new InferenceClient(settings, serdes)) {
      // Given a sequence streaming on the only instance, a worker in its own process
      doomed = startFleetProcess(settings, catalogue, workDir);
      Awaits.routerSees(pipeline, List.of("proc-0"));
      final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("crashes").setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("Tell a long story, slowly.").setMaxOutputTokens(1000)
          .setSeed(5).setSubmittedAtMs(System.currentTimeMillis()).build();
      final CompletableFuture<Response> answer = client.submit(request);
      responses.awaitUntil(records -> records.stream().filter(r -> r.key().equals("crashes"))
          .mapToInt(r -> r.value().getTokens().size()).sum() >= 8, Duration.ofSeconds(60));

      // When a backup is up and the worker's process is killed
      try (Fleet backup = Fleet.start(settings, "backup-", 1, List.of("zone-b"), GpuProfile.standard(),
          new SimpleMeterRegistry())) {
        Awaits.routerSees(pipeline, backup.instanceIds());
        doomed.kill();

        // Then the client's text is byte-identical to an uninterrupted run, and the outcome is cutover
        final Response response = answer.get(90, TimeUnit.SECONDS);
        assertThat(response.text()).isEqualTo(ExpectedText.of(request));
        assertThat(response.outcome()).isEqualTo(RoutingOutcome.CUTOVER);
        final List<RoutingDecision> all = decisions.awaitFor(List.of("crashes"), Duration.ofSeconds(5))
            .get("crashes");
        assertThat(all.get(0).getInstanceId()).isEqualTo("proc-0");
        assertThat(all.get(all.size() - 1).getInstanceId()).isEqualTo("backup-0");
      }
    } finally {
      if (doomed != null) {
        doomed.close();
      }
    }
  }

  private static ChildApp startFleetProcess(final ClusterSettings settings, final TopicCatalogue catalogue,
      final Path workDir) throws Exception {
    return ChildApp.start(FleetApp.class, settings, catalogue, workDir.resolve("fleet-process.log"),
        "ZEROLAYER_FLEET_HTTP_PORT", Map.of(
            "ZEROLAYER_FLEET_INSTANCES", "1",
            "ZEROLAYER_FLEET_ZONES", "zone-a",
            "ZEROLAYER_FLEET_ID_PREFIX", "proc-"));
  }
}
