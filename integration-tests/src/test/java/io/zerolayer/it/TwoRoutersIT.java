package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.client.InferenceClient;
import io.zerolayer.contract.client.Response;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.router.Router;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.runtime.ClusterSettings;
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
    final TopicCatalogue catalogue = cluster.newCatalogue();
    final ClusterSettings settings = cluster.settings(catalogue);
    final String group = catalogue.prefix() + "zerolayer-router";
    try (Fleet fleet = Fleet.start(settings, INSTANCES, List.of("zone-a", "zone-b"), GpuProfile.standard(),
            new SimpleMeterRegistry());
        Pipeline pipeline = Pipeline.start(settings, cluster.stateDir(catalogue), false, TestTenants.UNLIMITED);
        Router second = new Router(settings, new RouterConfig(Map.of(RouterConfig.ROUTER_ID,
            catalogue.prefix() + "router-2", RouterConfig.GROUP_ID, group)), new LatencyAwarePolicy(),
            TestTenants.UNLIMITED, new SimpleMeterRegistry());
        ContractSerdes serdes = new ContractSerdes(settings.serdes());
        DecisionLog decisions = new DecisionLog(settings, serdes);
        InferenceClient client = new InferenceClient(settings, serdes)) {
      Awaits.routerSees(pipeline, fleet.instanceIds());
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
