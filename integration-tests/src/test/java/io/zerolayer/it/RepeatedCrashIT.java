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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each process on a token's path, a worker, token-buffer and a router, killed with {@code kill -9}
 * ten times at random moments while sequences stream, and started again, the three on schedules
 * of their own, so that two or three are sometimes down at once: every client still sees every
 * token of every sequence once and in order, as it is passed on (the workers' chunks read at
 * once, filled in from the durable stream), and the text is the simulated model's hash chain,
 * which a spliced, repeated or wrongly resumed stream cannot match.
 */
@ExtendWith(TestCluster.class)
class RepeatedCrashIT {

  private static final int KILLS = 10;
  private static final Duration PACE = Duration.ofMillis(120);

  @Test
  @Timeout(value = 9, unit = TimeUnit.MINUTES)
  void shouldGiveEveryClientEveryTokenOnceInOrderWhenWorkerTokenBufferAndRouterAreEachKilledTenTimes(
      final TestCluster.Handle cluster) throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-b"), GpuProfile.standard())
        .withoutPipeline().start()) {
      final ClusterSettings settings = rig.settings();
      final String group = PipelineNames.routerGroup(rig.catalogue());
      rig.open(HeatmapApp.start(settings, new HeatmapConfig(SingleBroker.settings(HeatmapConfig.PREFIX,
          Map.of(
          HeatmapConfig.APPLICATION_ID, PipelineNames.heatmapApplicationId(rig.catalogue()),
          HeatmapConfig.STATE_DIR, rig.stateDir().resolve("heatmap").toString(), HeatmapConfig.HTTP_PORT, 0))),
          "127.0.0.1"));
      // A router of the group that is never killed, beside the one that is.
      final Router router = rig.open(new Router(settings, new RouterConfig(Map.of(
          RouterConfig.ROUTER_ID, rig.catalogue().prefix() + "r", RouterConfig.GROUP_ID, group)),
          new LatencyAwarePolicy(), TestTenants.UNLIMITED, new SimpleMeterRegistry()));
      final ChildApp[] tokenBuffer = {rig.open(ChildProcesses.tokenBuffer(rig))};
      final ChildApp[] worker = {rig.open(ChildProcesses.fleet(rig))};
      final ChildApp[] killedRouter = {rig.open(ChildProcesses.router(rig, "t"))};
      tokenBuffer[0].awaitReady(Duration.ofSeconds(120));
      killedRouter[0].awaitReady(Duration.ofSeconds(60));
      Awaits.groupHasMembersWithPartitions(settings, group, 2);
      Awaits.routerSees(router::heatmap, List.of("proc-0"));

      assertEveryStreamWholeWhile(rig,
          new Fault("worker", 23, () -> {
            worker[0].kill();
            worker[0] = rig.open(ChildProcesses.fleet(rig));
            worker[0].awaitReady(Duration.ofSeconds(60));
          }),
          new Fault("token-buffer", 29, () -> {
            tokenBuffer[0].kill();
            tokenBuffer[0] = rig.open(ChildProcesses.tokenBuffer(rig));
            tokenBuffer[0].awaitReady(Duration.ofSeconds(120));
          }),
          new Fault("router", 31, () -> {
            killedRouter[0].kill();
            killedRouter[0] = rig.open(ChildProcesses.router(rig, "t"));
            killedRouter[0].awaitReady(Duration.ofSeconds(60));
            Awaits.groupHasMembersWithPartitions(settings, group, 2);
          }));
    }
  }

  /** A kill and its repair, made {@link #KILLS} times on a schedule drawn from {@code seed}. */
  private record Fault(String process, long seed, Repair repair) {

    /** Kills the process and waits until its successor is ready. */
    interface Repair {
      void run() throws Exception;
    }

    /** Each kill 300 to 2,000 ms after the previous repair. */
    Void runAll() throws Exception {
      final Random random = new Random(seed);
      for (int i = 0; i < KILLS; i++) {
        TimeUnit.MILLISECONDS.sleep(300 + random.nextInt(1_700));
        final long start = System.nanoTime();
        repair.run();
        System.out.printf("%s kill %d of %d: killed, restarted and ready again in %d ms%n", process, i + 1, KILLS,
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
      }
      return null;
    }
  }

  /**
   * Sequences sent at a steady pace throughout while every fault runs its schedule, side by side;
   * then every sequence's stream is checked.
   */
  private static void assertEveryStreamWholeWhile(final PipelineRig rig, final Fault... faults) throws Exception {
    final ExecutorService schedules = Executors.newFixedThreadPool(faults.length);
    try (SteadyLoad load = new SteadyLoad(rig.settings(), rig.serdes(), "t", TestTenants.key("t"), PACE, 19)) {
      final List<Future<Void>> running = new ArrayList<>();
      for (final Fault fault : faults) {
        running.add(schedules.submit(fault::runAll));
      }
      for (final Future<Void> schedule : running) {
        schedule.get();
      }
      TimeUnit.SECONDS.sleep(2);
      final LoadVerdict verdict = load.verdict(Duration.ofMinutes(3));
      assertThat(verdict.sent()).isPositive();
      assertThat(verdict.violations()).as("sequences lost, duplicated, reordered, spliced or unanswered: %s", verdict)
          .isZero();
    } finally {
      schedules.shutdownNow();
    }
  }
}
