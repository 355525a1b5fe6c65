package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.testsupport.Awaits;
import io.zerolayer.testsupport.ChildApp;
import io.zerolayer.testsupport.DecisionLog;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
    try (PipelineRig rig = PipelineRig.on(cluster).start()) {
      final Pipeline pipeline = rig.pipeline();
      final DecisionLog decisions = rig.decisions();
      final RecordCollector<String, ResponseChunk> responses = rig.responses();
      final InferenceClient client = rig.client();
      // Given a sequence streaming on the only instance, a worker in its own process
      final ChildApp doomed = rig.open(ChildProcesses.fleet(rig));
      Awaits.routerSees(pipeline, List.of("proc-0"));
      final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("crashes").setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("Tell a long story, slowly.").setMaxOutputTokens(1000)
          .setSeed(5).setSubmittedAtMs(System.currentTimeMillis()).build();
      final CompletableFuture<Response> answer = client.submit(request);
      responses.awaitUntil(records -> records.stream().filter(r -> r.key().equals("crashes"))
          .mapToInt(r -> r.value().getTokens().size()).sum() >= 8, Duration.ofSeconds(60));

      // When a backup is up and the worker's process is killed
      try (Fleet backup = Fleet.start(rig.settings(), "backup-", 1, List.of("zone-b"), GpuProfile.standard(),
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
    }
  }
}
