package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.testsupport.Awaits;
import io.zerolayer.testsupport.ChildApp;
import io.zerolayer.testsupport.DecisionLog;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** A router process killed with {@code kill -9} in the middle of a stream of requests. */
@ExtendWith(TestCluster.class)
class RouterCrashIT {

  private static final int REQUESTS = 300;
  private static final long PACE_MS = 10;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void shouldDispatchAndAnswerEveryRequestExactlyOnceWhenARouterIsKilled(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(3, List.of("zone-a"), GpuProfile.standard()).start()) {
      final DecisionLog decisions = rig.decisions();
      final RecordCollector<String, DispatchTask> dispatches = rig.collect(Topics.DISPATCH);
      final RecordCollector<String, ResponseChunk> responses = rig.responses();
      final InferenceClient client = rig.client();
      // Given a second router, in its own process, sharing the requests with the in-process one
      final ChildApp doomed = rig.open(ChildProcesses.router(rig, "tenant-0"));
      doomed.awaitReady(Duration.ofSeconds(60));
      Awaits.groupHasMembersWithPartitions(rig.settings(), PipelineNames.routerGroup(rig.catalogue()), 2);

      // When requests stream in and that process is killed a third of the way, once it has routed some
      final List<CompletableFuture<Response>> answers = new ArrayList<>();
      long killedAtMs = 0;
      for (int i = 0; i < REQUESTS; i++) {
        answers.add(client.submit(request(i)));
        if (i == REQUESTS / 3) {
          await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
              .until(() -> routedBy(decisions, "crash-router"));
          doomed.kill();
          killedAtMs = System.currentTimeMillis();
        }
        TimeUnit.MILLISECONDS.sleep(PACE_MS);
      }

      // Then every request gets exactly one first decision, each attempt one dispatch, and one final response
      for (final CompletableFuture<Response> answer : answers) {
        answer.get(2, TimeUnit.MINUTES);
      }
      final List<String> ids = answers.stream().map(a -> a.join().sequenceId()).toList();
      assertThat(ids).hasSize(REQUESTS).doesNotHaveDuplicates();
      final Map<String, List<RoutingDecision>> decided = decisions.awaitFor(ids, Duration.ofSeconds(30));
      // (on this busy machine an attempt can stall and be cut over to a second one with its own epoch; and
      // while the heatmap has every instance out of service, a request is throttled at once, with epoch 0)
      assertThat(decided.values()).allSatisfy(d -> {
        assertThat(d).extracting(RoutingDecision::getEpoch).doesNotHaveDuplicates();
        assertThat(d).filteredOn(DecisionLog::isFirst).singleElement()
            .matches(first -> first.getEpoch() == 1 || first.getOutcome() == RoutingOutcome.THROTTLED);
      });
      final Set<String> attempts = decided.values().stream().flatMap(List::stream)
          .filter(d -> d.getInstanceId() != null).map(RouterCrashIT::attempt).collect(Collectors.toSet());
      assertThat(countBy(dispatches.awaitUntil(records -> countBy(records, RouterCrashIT::attempt).keySet()
          .containsAll(attempts), Duration.ofSeconds(30)), RouterCrashIT::attempt))
          .containsOnlyKeys(attempts).allSatisfy((attempt, n) -> assertThat(n).isOne());
      // Every instance was warm: each attempt went out as to a warm one, for its worker to hand back were it not
      assertThat(dispatches.records()).extracting(r -> r.value().getExpectsWarm()).containsOnly(true);
      final List<ConsumerRecord<String, ResponseChunk>> finals = responses.records().stream()
          .filter(r -> r.value().getLast()).toList();
      assertThat(countBy(finals, ConsumerRecord::key)).hasSize(REQUESTS).allSatisfy((id, n) -> assertThat(n).isOne());
      // And the surviving router took over the requests of the killed one's partitions
      final List<RoutingDecision> firsts = decided.values().stream().flatMap(List::stream)
          .filter(DecisionLog::isFirst).toList();
      final Set<Integer> killedPartitions = firsts.stream().filter(d -> d.getRouterId().equals("crash-router"))
          .map(RoutingDecision::getRequestPartition).collect(Collectors.toSet());
      final long killedAt = killedAtMs;
      assertThat(firsts).anyMatch(d -> !d.getRouterId().equals("crash-router")
          && killedPartitions.contains(d.getRequestPartition()) && d.getDecidedAtMs() > killedAt);
    }
  }

  private static boolean routedBy(final DecisionLog decisions, final String routerId) {
    return decisions.all().stream().anyMatch(d -> d.getRouterId().equals(routerId));
  }

  private static String attempt(final RoutingDecision decision) {
    return decision.getSequenceId() + "#" + decision.getEpoch();
  }

  private static String attempt(final ConsumerRecord<String, DispatchTask> dispatch) {
    return dispatch.value().getSequenceId() + "#" + dispatch.value().getEpoch();
  }

  private static <R> Map<String, Long> countBy(final List<R> records, final Function<R, String> key) {
    return records.stream().collect(Collectors.groupingBy(key, Collectors.counting()));
  }

  private static InferenceRequest request(final int i) {
    return InferenceRequest.newBuilder().setSequenceId("crash-" + i).setTenantId("tenant-0")
        .setApiKey(TestTenants.key("tenant-0")).setPrompt("Survive " + i).setMaxOutputTokens(8).setSeed(i)
        .setSubmittedAtMs(System.currentTimeMillis()).build();
  }
}
