package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.PartitionShare;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.routing.RoutingReasons;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.testsupport.Awaits;
import io.zerolayer.testsupport.ChildApp;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Requests that reuse the sequence id of a stream in progress, from another tenant and from the
 * same one, while the routers' partitions are handed over: each is refused and never
 * dispatched, and the stream's text stays whole.
 */
@ExtendWith(TestCluster.class)
class SequenceIdReuseIT {

  /** Slow decoding: 800 tokens take some 40 s, longer than a router's hand-over. */
  private static final GpuProfile SLOW = new GpuProfile(16, 20, 0.05, 50, 0.5, Duration.ofSeconds(8), 4);
  private static final int TOKENS = 800;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void shouldRefuseEveryReuseOfAStreamsIdAndLeaveItsTextWholeWhenAnotherRouterTakesItsPartition(
      final TestCluster.Handle cluster) throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(3, List.of("zone-a"), SLOW).start();
        InferenceClient other = new InferenceClient(rig.settings(), rig.serdes())) {
      final RecordCollector<String, DispatchTask> dispatches = rig.collect(Topics.DISPATCH);
      // Given a second router in its own process, sharing the partitions with the in-process one
      final ChildApp second = rig.open(ChildProcesses.router(rig, "tenant-0", "tenant-1"));
      second.awaitReady(Duration.ofSeconds(60));
      Awaits.groupHasMembersWithPartitions(rig.settings(), PipelineNames.routerGroup(rig.catalogue()), 2);
      // And a long stream of tenant-0 on every partition, each routed by the router that reads it
      final List<InferenceRequest> streams = onEveryPartition();
      final Map<String, AtomicInteger> received = new HashMap<>();
      final List<CompletableFuture<Response>> answers = new ArrayList<>();
      for (final InferenceRequest stream : streams) {
        final AtomicInteger tokens = new AtomicInteger();
        received.put(stream.getSequenceId(), tokens);
        answers.add(rig.client().submit(stream, chunk -> tokens.addAndGet(chunk.getTokens().size())));
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> received.values().stream().allMatch(n -> n.get() > 0));

      // When tenant-1 sends a request with each stream's id
      assertRefused(other, streams, "tenant-1", "Write me something else");
      // And the second router is killed, so that the first takes its partitions and reads their holds back
      second.kill();
      Awaits.groupHasMembersWithPartitions(rig.settings(), PipelineNames.routerGroup(rig.catalogue()), 1);
      // And tenant-0 sends a request with each stream's id again
      assertThat(received.values()).as("the streams are still going").allMatch(n -> n.get() < TOKENS);
      assertRefused(other, streams, "tenant-0", "And now the same id once more");

      // Then every stream ends with exactly its own text, dispatched once from its own request
      for (int i = 0; i < streams.size(); i++) {
        final Response response = answers.get(i).get(2, TimeUnit.MINUTES);
        assertThat(response.outcome()).isNotIn(RoutingOutcome.REJECTED, RoutingOutcome.THROTTLED);
        assertThat(response.text()).isEqualTo(ExpectedText.of(streams.get(i)));
      }
      assertThat(dispatches.records()).allSatisfy(dispatch ->
          assertThat(dispatch.value().getPrompt()).doesNotContain("something else", "once more"));

      // And once a stream has ended, its id may be used again
      final InferenceRequest again = InferenceRequest.newBuilder(streams.get(0)).setMaxOutputTokens(8)
          .setPrompt("A short one").setSubmittedAtMs(System.currentTimeMillis()).build();
      final Response reused = await().atMost(Duration.ofSeconds(30)).until(
          () -> rig.client().submit(again).get(30, TimeUnit.SECONDS),
          response -> response.outcome() != RoutingOutcome.REJECTED);
      assertThat(reused.text()).isEqualTo(ExpectedText.of(again));
    }
  }

  /** Each request with one stream's id is refused for that reason, whose text says nothing of the holder. */
  private static void assertRefused(final InferenceClient client, final List<InferenceRequest> streams,
      final String tenantId, final String prompt) throws Exception {
    for (final InferenceRequest stream : streams) {
      final InferenceRequest reuse = InferenceRequest.newBuilder().setSequenceId(stream.getSequenceId())
          .setTenantId(tenantId).setApiKey(TestTenants.key(tenantId)).setPrompt(prompt).setMaxOutputTokens(16)
          .setSeed(7).setSubmittedAtMs(System.currentTimeMillis()).build();
      final Response refused = client.submit(reuse).get(60, TimeUnit.SECONDS);
      assertThat(refused.outcome()).as("reuse of %s by %s", stream.getSequenceId(), tenantId)
          .isEqualTo(RoutingOutcome.REJECTED);
      assertThat(RoutingReasons.isSequenceInUse(refused.last().getReason())).as(refused.last().getReason()).isTrue();
      assertThat(refused.tokens()).isEmpty();
    }
  }

  /** One request of tenant-0 whose id lands on each partition of the sequence topics. */
  private static List<InferenceRequest> onEveryPartition() {
    final Map<Integer, InferenceRequest> byPartition = new HashMap<>();
    for (int i = 0; byPartition.size() < Topics.SEQUENCE_PARTITIONS; i++) {
      final String id = "held-" + i;
      final int seed = i;
      byPartition.computeIfAbsent(PartitionShare.partitionOf(id, Topics.SEQUENCE_PARTITIONS), p ->
          InferenceRequest.newBuilder().setSequenceId(id).setTenantId("tenant-0")
              .setApiKey(TestTenants.key("tenant-0")).setPrompt("Tell a long story " + seed)
              .setMaxOutputTokens(TOKENS).setSeed(seed).setSubmittedAtMs(System.currentTimeMillis()).build());
    }
    return List.copyOf(byPartition.values());
  }
}
