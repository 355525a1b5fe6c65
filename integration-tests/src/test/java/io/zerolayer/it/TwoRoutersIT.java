package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.router.Router;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.testsupport.Awaits;
import io.zerolayer.testsupport.DecisionLog;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestCluster.class)
class TwoRoutersIT {

  private static final int INSTANCES = 4;
  private static final int REQUESTS = 120;
  /** Paced, so the shared 2-core machine is not so loaded that instances degrade and requests are throttled. */
  private static final long PACE_MS = 20;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void shouldSpreadLoadSoNoInstanceGetsMoreThanTwiceItsFairShare(final TestCluster.Handle cluster) throws Exception {
    // Given two routers in one group and a flat heatmap: four identical, idle instances
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(INSTANCES, List.of("zone-a", "zone-b"),
        GpuProfile.standard()).start()) {
      final ClusterSettings settings = rig.settings();
      final String group = PipelineNames.routerGroup(rig.catalogue());
      final Router second = rig.open(new Router(settings, new RouterConfig(Map.of(RouterConfig.ROUTER_ID,
          rig.catalogue().prefix() + "router-2", RouterConfig.GROUP_ID, group)), new LatencyAwarePolicy(),
          TestTenants.UNLIMITED, new SimpleMeterRegistry()));
      final DecisionLog decisions = rig.decisions();
      final InferenceClient client = rig.client();
      assertThat(second.awaitStarted(Duration.ofSeconds(60))).isTrue();
      Awaits.groupHasMembersWithPartitions(settings, group, 2);

      // When requests arrive faster than the heatmap is updated (every 200 ms)
      final List<CompletableFuture<Response>> answers = new ArrayList<>();
      for (int i = 0; i < REQUESTS; i++) {
        answers.add(client.submit(request(i)));
        TimeUnit.MILLISECONDS.sleep(PACE_MS);
      }
      for (final CompletableFuture<Response> answer : answers) {
        answer.get(3, TimeUnit.MINUTES);
      }

      // Then each request has one first decision, both routers decided, and no instance got more than
      // twice its fair share of first attempts (a sequence that stalls on this busy machine is cut over
      // to a second attempt, which is not routing; while the heatmap has every instance out of service,
      // a request is throttled at once, with epoch 0)
      final List<RoutingDecision> firsts = decisions.awaitFor(
          IntStream.range(0, REQUESTS).mapToObj(i -> "spread-" + i).toList(), Duration.ofSeconds(30))
          .values().stream().flatMap(List::stream).filter(DecisionLog::isFirst).toList();
      assertThat(firsts).hasSize(REQUESTS).allMatch(d -> d.getOutcome() == RoutingOutcome.DIRECT
          || d.getEpoch() == 0 && d.getOutcome() == RoutingOutcome.THROTTLED);
      assertThat(firsts.stream().map(RoutingDecision::getRouterId).distinct()).hasSize(2);
      final Map<String, Long> perInstance = firsts.stream().filter(d -> d.getEpoch() == 1)
          .collect(Collectors.groupingBy(RoutingDecision::getInstanceId, Collectors.counting()));
      final long fairShare = REQUESTS / INSTANCES;
      assertThat(perInstance.values()).as("dispatches per instance: %s", perInstance)
          .allMatch(count -> count <= 2 * fairShare);
    }
  }

  private static InferenceRequest request(final int i) {
    return InferenceRequest.newBuilder().setSequenceId("spread-" + i).setTenantId("tenant-0")
        .setApiKey(TestTenants.key("tenant-0")).setPrompt("Spread me " + i).setMaxOutputTokens(8).setSeed(i)
        .setSubmittedAtMs(System.currentTimeMillis()).build();
  }
}
