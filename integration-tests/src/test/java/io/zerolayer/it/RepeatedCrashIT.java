package io.zerolayer.it;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.SingleBroker;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void shouldGiveEveryClientEveryTokenOnceInOrderWhenTheWorkerIsKilledTenTimes(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-b"), GpuProfile.standard()).start()) {
      final SteadyStreams streams = new SteadyStreams(rig);
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
      final SteadyStreams streams = new SteadyStreams(rig);

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
      final SteadyStreams streams = new SteadyStreams(rig);

      streams.runWhile(KILLS, () -> {
        router[0].kill();
        router[0] = rig.open(ChildProcesses.router(rig, "t"));
        router[0].awaitReady(Duration.ofSeconds(60));
        Awaits.groupHasMembersWithPartitions(rig.settings(), group, 2);
      });

      streams.assertEveryStreamWhole();
    }
  }
}
