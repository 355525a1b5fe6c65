package io.zerolayer.deploy.stack;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.local.WorkDirs;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.gateway.Gateway;
import io.zerolayer.gateway.GatewayConfig;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.runtime.tenant.TenantSignature;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The embedded default, step by step: registry and broker, topics, apps, a simulated fleet,
 * until the router's heatmap shows every instance. Closing stops what was started, fleet
 * first and broker last; it may be called from a shutdown hook while starting.
 */
public final class LocalDeployment implements AutoCloseable {

  private static final Duration HEATMAP_TIMEOUT = Duration.ofSeconds(60);

  private final PrintStream out;
  private final int brokers;
  private volatile LocalCluster cluster;
  private volatile Pipeline pipeline;
  private volatile MetricsServer fleetServer;
  private volatile Fleet fleet;
  private volatile Gateway gateway;
  private volatile ContractSerdes gatewaySerdes;
  private volatile ClusterSettings settings;
  private Map<String, ?> routerSettings = Map.of();

  /** A deployment on one broker. */
  public LocalDeployment(final PrintStream out) {
    this(out, 1);
  }

  /** A deployment on {@code brokers} brokers: 1, or 3 and more with every topic replicated three times. */
  public LocalDeployment(final PrintStream out, final int brokers) {
    if (brokers != 1 && brokers < 3) {
      throw new IllegalArgumentException("Run 1 broker, or 3 or more (topics keep three replicas); got " + brokers);
    }
    this.out = out;
    this.brokers = brokers;
  }

  /** Router settings ({@code RouterConfig} keys) over the defaults, for the next start. */
  public LocalDeployment withRouterSettings(final Map<String, ?> settings) {
    this.routerSettings = Map.copyOf(settings);
    return this;
  }

  /**
   * @param fleetHttpPort port of the fleet's metrics endpoint, 0 for a free one
   * @param defaultPorts serve the apps' metrics on their default ports, else on free ones
   */
  public void start(final Path workDir, final int instances, final int zones, final TenantDirectory tenants,
      final int fleetHttpPort, final boolean defaultPorts) throws Exception {
    final Path dir = workDir.toAbsolutePath();
    step("Starting the schema registry and " + (brokers == 1 ? "the Kafka broker" : brokers + " Kafka brokers")
        + " (KRaft) under " + dir);
    cluster = LocalCluster.start(dir, brokers);
    step("Provisioning topics (" + cluster.profile().name().toLowerCase(Locale.ROOT) + " profile): "
        + cluster.provision(TopicCatalogue.unprefixed()).summary());
    settings = cluster.settings(TopicCatalogue.unprefixed());
    step("Starting heatmap-streams, token-buffer, a router and the HTTP gateway");
    // The broker starts empty every time, so the stores must too.
    WorkDirs.deleteRecursively(dir.resolve("state"));
    // The gateway and the router share a secret made for this run alone.
    final String secret = TenantSignature.newSecret();
    final Map<String, Object> router = new HashMap<>(routerSettings);
    router.put(RouterConfig.GATEWAY_SIGNING_SECRET, secret);
    pipeline = Pipeline.start(settings, dir.resolve("state"), defaultPorts, tenants, new LatencyAwarePolicy(), true,
        router, cluster.durability());
    gatewaySerdes = new ContractSerdes(settings.serdes());
    gateway = Gateway.start(new GatewayConfig(Map.of(GatewayConfig.SIGNING_SECRET, secret,
        GatewayConfig.HTTP_PORT, defaultPorts ? GatewayConfig.DEFAULT_HTTP_PORT : 0,
        GatewayConfig.SEQUENCE_QUERY_URL, pipeline.tokenBufferUrl(),
        GatewayConfig.SEQUENCE_QUERY_TOKEN, pipeline.sequenceQueryToken())), tenants, settings, gatewaySerdes);
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

  /** The HTTP gateway. */
  public Gateway gateway() {
    return gateway;
  }

  /**
   * Where each piece answers, and a command that streams a completion through the gateway.
   *
   * @param apiKey a tenant's key, for the command
   */
  public void printEndpoints(final String apiKey) {
    step("Up. Registry " + cluster.registryUrl() + ", Kafka " + cluster.bootstrapServers());
    out.println("  OpenAI- and Anthropic-compatible API: " + gateway.baseUrl() + "  (API key: " + apiKey + ")");
    out.println("  try: curl -N " + gateway.baseUrl() + "/chat/completions -H 'Authorization: Bearer " + apiKey
        + "' -H 'Content-Type: application/json' -d '{\"model\": \"" + Fleet.MODEL + "\", \"stream\": true,"
        + " \"max_tokens\": 32, \"messages\": [{\"role\": \"user\", \"content\": \"Why Kafka?\"}]}'");
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
    if (gateway != null) {
      gateway.close();
      gatewaySerdes.close();
    }
    if (pipeline != null) {
      pipeline.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    fleet = null;
    fleetServer = null;
    gateway = null;
    pipeline = null;
    cluster = null;
  }
}
