package io.zerolayer.deploy.cli;

import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.local.WorkDirs;
import io.zerolayer.deploy.stack.LocalCluster;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.runtime.ClusterSettings;
import io.zerolayer.runtime.MetricsServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code zerolayer up}: the embedded default. Starts a schema registry, a Kafka broker, the
 * topics, the apps and a simulated fleet, sends a few requests, prints how each was routed and
 * answered, and keeps running until Ctrl-C, which stops everything.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
    description = "Starts the embedded default (registry, broker, topics, apps, a simulated fleet) and sends a few requests.")
final class UpCommand implements Callable<Integer> {

  private static final Duration HEATMAP_TIMEOUT = Duration.ofSeconds(60);
  private static final int FLEET_HTTP_PORT = 8085;

  @Option(names = "--instances", defaultValue = "4", description = "Simulated instances. Default: ${DEFAULT-VALUE}.")
  private int instances;

  @Option(names = "--zones", defaultValue = "2", description = "Zones the instances spread over. Default: ${DEFAULT-VALUE}.")
  private int zones;

  @Option(names = "--requests", defaultValue = "8", description = "Requests to send once up. Default: ${DEFAULT-VALUE}.")
  private int requests;

  @Option(names = "--work-dir", defaultValue = "target/zerolayer-up",
      description = "Where the broker, registry and stores keep their files. Default: ${DEFAULT-VALUE}.")
  private Path workDir;

  @Option(names = "--exit", description = "Stop after the requests instead of running until Ctrl-C.")
  private boolean exitAfterRequests;

  @Override
  public Integer call() throws Exception {
    final CountDownLatch stop = new CountDownLatch(1);
    final Stack stack = new Stack();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("Stopping: fleet, apps, broker, registry ...");
      stack.close();
      System.out.println("Stopped.");
      stop.countDown();
    }, "zerolayer-up-shutdown"));
    final Path dir = workDir.toAbsolutePath();
    step("Starting the schema registry and the Kafka broker (KRaft) under " + dir);
    stack.cluster = LocalCluster.start(dir);
    step("Provisioning topics: " + stack.cluster.provision(TopicCatalogue.unprefixed()).summary());
    final ClusterSettings settings = stack.cluster.settings(TopicCatalogue.unprefixed());
    step("Starting heatmap-streams, token-buffer and a router");
    // The broker starts empty every time, so the stores must too.
    WorkDirs.deleteRecursively(dir.resolve("state"));
    stack.pipeline = Pipeline.start(settings, dir.resolve("state"), true, DemoRequests.TENANTS);
    final List<String> zoneNames = IntStream.range(0, zones).mapToObj(i -> "zone-" + (char) ('a' + i)).toList();
    step("Starting " + instances + " simulated instances over " + zoneNames);
    stack.fleetServer = new MetricsServer("fleet-sim", http -> { }).start("127.0.0.1", FLEET_HTTP_PORT);
    stack.fleet = Fleet.start(settings, instances, zoneNames, GpuProfile.standard(), stack.fleetServer.registry());
    step("Waiting until the router's heatmap shows every instance");
    awaitHeatmap(stack.pipeline, stack.fleet.instanceIds());
    new DemoRequests(settings, System.out).run(requests);
    step("Up. Registry " + stack.cluster.registryUrl() + ", broker " + stack.cluster.bootstrapServers());
    stack.pipeline.metricsUrls().forEach((app, url) -> System.out.println("  metrics of " + app + ": " + url));
    System.out.println("  metrics of fleet-sim: http://127.0.0.1:" + stack.fleetServer.port() + "/metrics");
    if (exitAfterRequests) {
      return 0;
    }
    System.out.println("Running until Ctrl-C.");
    stop.await();
    return 0;
  }

  private static void awaitHeatmap(final Pipeline pipeline, final List<String> instanceIds)
      throws InterruptedException {
    final long deadline = System.nanoTime() + HEATMAP_TIMEOUT.toNanos();
    while (!instanceIds.stream().allMatch(id -> pipeline.routerHeatmap().row(id) != null)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("The router's heatmap did not show " + instanceIds + " within "
            + HEATMAP_TIMEOUT.toSeconds() + " s; look for errors above (telemetry, heatmap-streams)");
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  private static void step(final String message) {
    System.out.println("==> " + message);
  }

  /** What has been started so far, closed in reverse order. */
  private static final class Stack {
    private volatile LocalCluster cluster;
    private volatile Pipeline pipeline;
    private volatile Fleet fleet;
    private volatile MetricsServer fleetServer;

    synchronized void close() {
      if (fleet != null) {
        fleet.close();
      }
      if (fleetServer != null) {
        fleetServer.close();
      }
      if (pipeline != null) {
        pipeline.close();
      }
      if (cluster != null) {
        cluster.close();
      }
      fleet = null;
      fleetServer = null;
      pipeline = null;
      cluster = null;
    }
  }
}
