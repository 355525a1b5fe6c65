package io.zerolayer.deploy.stack;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.local.WorkDirs;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.router.tenant.TenantDirectory;
import io.zerolayer.runtime.MetricsServer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The embedded default, step by step: registry and broker, topics, apps, a simulated fleet,
 * until the router's heatmap shows every instance. Closing stops what was started, fleet
 * first and broker last; it may be called from a shutdown hook while starting.
 */
public final class LocalDeployment implements AutoCloseable {

  private static final Duration HEATMAP_TIMEOUT = Duration.ofSeconds(60);

  private final PrintStream out;
  private volatile LocalCluster cluster;
  private volatile Pipeline pipeline;
  private volatile MetricsServer fleetServer;
  private volatile Fleet fleet;
  private volatile ClusterSettings settings;

  public LocalDeployment(final PrintStream out) {
    this.out = out;
  }

  /**
   * @param fleetHttpPort port of the fleet's metrics endpoint, 0 for a free one
   * @param defaultPorts serve the apps' metrics on their default ports, else on free ones
   */
  public void start(final Path workDir, final int instances, final int zones, final TenantDirectory tenants,
      final int fleetHttpPort, final boolean defaultPorts) throws Exception {
    final Path dir = workDir.toAbsolutePath();
    step("Starting the schema registry and the Kafka broker (KRaft) under " + dir);
    cluster = LocalCluster.start(dir);
    step("Provisioning topics: " + cluster.provision(TopicCatalogue.unprefixed()).summary());
    settings = cluster.settings(TopicCatalogue.unprefixed());
    step("Starting heatmap-streams, token-buffer and a router");
    // The broker starts empty every time, so the stores must too.
    WorkDirs.deleteRecursively(dir.resolve("state"));
    pipeline = Pipeline.start(settings, dir.resolve("state"), defaultPorts, tenants);
    final List<String> zoneNames = IntStream.range(0, zones).mapToObj(i -> "zone-" + (char) ('a' + i)).toList();
    step("Starting " + instances + " simulated instances over " + zoneNames);
    fleetServer = new MetricsServer("fleet-sim", http -> { }).start("127.0.0.1", fleetHttpPort);
    fleet = Fleet.start(settings, instances, zoneNames, GpuProfile.standard(), fleetServer.registry());
    step("Waiting until the router's heatmap shows every instance");
    pipeline.awaitHeatmap(fleet.instanceIds(), HEATMAP_TIMEOUT);
  }

  /** Client settings of the running deployment. */
  public ClusterSettings settings() {
    return settings;
  }

  /** The simulated fleet, for fault injection. */
  public Fleet fleet() {
    return fleet;
  }

  /** The in-process apps. */
  public Pipeline pipeline() {
    return pipeline;
  }

  /** Where each piece answers. */
  public void printEndpoints() {
    step("Up. Registry " + cluster.registryUrl() + ", broker " + cluster.bootstrapServers());
    pipeline.metricsUrls().forEach((app, url) -> out.println("  metrics of " + app + ": " + url));
    out.println("  metrics of fleet-sim: http://127.0.0.1:" + fleetServer.port() + "/metrics");
  }

  private void step(final String message) {
    out.println("==> " + message);
  }

  @Override
  public synchronized void close() {
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
