package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.bench.chaos.LoadVerdict;
import io.zerolayer.bench.chaos.SteadyLoad;
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
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each process on a token's path killed with {@code kill -9} seven times at random moments while
 * sequences stream, and started again: every client still sees every token of every sequence
 * once and in order, as it is passed on (the workers' chunks read at once, filled in from the
 * durable stream), and the text is the simulated model's hash chain, which a spliced, repeated or
 * wrongly resumed stream cannot match.
 */
@ExtendWith(TestCluster.class)
class RepeatedCrashIT {

  private static final int KILLS = 7;
  private static final Duration PACE = Duration.ofMillis(120);

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void shouldGiveEveryClientEveryTokenOnceInOrderWhenTheWorkerIsKilledSevenTimes(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-b"), GpuProfile.standard()).start()) {
      final ChildApp[] worker = {rig.open(ChildProcesses.fleet(rig))};
      Awaits.routerSees(rig.pipeline(), List.of("proc-0"));

      assertEveryStreamWholeWhile(rig, () -> {
        worker[0].kill();
        worker[0] = rig.open(ChildProcesses.fleet(rig));
        worker[0].awaitReady(Duration.ofSeconds(60));
      });
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void shouldGiveEveryClientEveryTokenOnceInOrderWhenTokenBufferIsKilledSevenTimes(
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

      assertEveryStreamWholeWhile(rig, () -> {
        tokenBuffer[0].kill();
        tokenBuffer[0] = rig.open(ChildProcesses.tokenBuffer(rig));
        tokenBuffer[0].awaitReady(Duration.ofSeconds(120));
      });
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void shouldGiveEveryClientEveryTokenOnceInOrderWhenARouterIsKilledSevenTimes(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(3, List.of("zone-a"), GpuProfile.standard()).start()) {
      final String group = PipelineNames.routerGroup(rig.catalogue());
      final ChildApp[] router = {rig.open(ChildProcesses.router(rig, "t"))};
      router[0].awaitReady(Duration.ofSeconds(60));
      Awaits.groupHasMembersWithPartitions(rig.settings(), group, 2);

      assertEveryStreamWholeWhile(rig, () -> {
        router[0].kill();
        router[0] = rig.open(ChildProcesses.router(rig, "t"));
        router[0].awaitReady(Duration.ofSeconds(60));
        Awaits.groupHasMembersWithPartitions(rig.settings(), group, 2);
      });
    }
  }

  /** A fault and its repair. */
  private interface Fault {
    void run() throws Exception;
  }

  /**
   * Sequences sent at a steady pace throughout while the fault is made {@link #KILLS} times, 300 to
   * 2,000 ms after the previous repair; then every sequence's stream is checked.
   */
  private static void assertEveryStreamWholeWhile(final PipelineRig rig, final Fault fault) throws Exception {
    final Random random = new Random(19);
    try (SteadyLoad load = new SteadyLoad(rig.settings(), rig.serdes(), "t", TestTenants.key("t"), PACE, 19)) {
      for (int i = 0; i < KILLS; i++) {
        TimeUnit.MILLISECONDS.sleep(300 + random.nextInt(1_700));
        final long start = System.nanoTime();
        fault.run();
        System.out.printf("Kill %d of %d: killed, restarted and ready again in %d ms%n", i + 1, KILLS,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
      }
      TimeUnit.SECONDS.sleep(2);
      final LoadVerdict verdict = load.verdict(Duration.ofMinutes(3));
      assertThat(verdict.sent()).isPositive();
      assertThat(verdict.violations()).as("sequences lost, duplicated, reordered, spliced or unanswered: %s", verdict)
          .isZero();
    }
  }
}
