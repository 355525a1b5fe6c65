package io.zerolayer.deploy.stack;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.deploy.acls.App;
import io.zerolayer.heatmap.HeatmapApp;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.router.Router;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.RoutingPolicy;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.runtime.StreamsDurability;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.runtime.tenant.TenantSignature;
import io.zerolayer.tokenbuffer.TokenBufferApp;
import io.zerolayer.tokenbuffer.TokenBufferConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * heatmap-streams, token-buffer and one router in this JVM, for the quick start and the
 * integration tests. In production each runs as its own process ({@code HeatmapApp},
 * {@code TokenBufferApp}, {@code RouterApp}). Application ids and consumer groups carry the
 * catalogue's prefix, so deployments sharing a cluster stay apart.
 */
public final class Pipeline implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
  private static final Duration STARTUP = Duration.ofSeconds(90);

  private final StreamsApp heatmap;
  private final StreamsApp tokenBuffer;
  private final String queryToken;
  private final MetricsServer routerServer;
  private final Router router;

  private Pipeline(final StreamsApp heatmap, final StreamsApp tokenBuffer, final String queryToken,
      final MetricsServer routerServer, final Router router) {
    this.heatmap = heatmap;
    this.tokenBuffer = tokenBuffer;
    this.queryToken = queryToken;
    this.routerServer = routerServer;
    this.router = router;
  }

  /**
   * Starts the apps with the router's policy and token-buffer's cut-over as given, and waits until
   * each takes input.
   *
   * @param stateDir where the streams apps keep their stores
   * @param defaultPorts serve metrics on the apps' default ports, else on free ones
   * @param tenants the tenants the router serves
   * @param policy the router's policy; a new one, since the router's thread owns it from now on
   * @param cutover whether token-buffer hands stalled and failed attempts to a backup
   *     ({@code tokenbuffer.cutover.enabled})
   * @param routerSettings router settings ({@link RouterConfig} keys) over the defaults
   * @param durability replicas of the streams apps' own topics, and their standby replicas
   */
  public static Pipeline start(final ClusterSettings cluster, final Path stateDir, final boolean defaultPorts,
      final TenantDirectory tenants, final RoutingPolicy policy, final boolean cutover,
      final Map<String, ?> routerSettings, final StreamsDurability durability)
      throws InterruptedException, TimeoutException {
    requireNonNull(cluster, "cluster");
    return start(app -> cluster, stateDir, defaultPorts, tenants, policy, cutover, routerSettings, durability);
  }

  /**
   * As {@link #start(ClusterSettings, Path, boolean, TenantDirectory, RoutingPolicy, boolean, Map,
   * StreamsDurability)}, each app connecting with settings of its own (its own principal, on a
   * secured cluster). Every app's settings must name the same catalogue.
   */
  public static Pipeline start(final Function<App, ClusterSettings> clusters, final Path stateDir,
      final boolean defaultPorts, final TenantDirectory tenants, final RoutingPolicy policy, final boolean cutover,
      final Map<String, ?> routerSettings, final StreamsDurability durability)
      throws InterruptedException, TimeoutException {
    requireNonNull(policy, "policy");
    requireNonNull(durability, "durability");
    final ClusterSettings cluster = clusters.apply(App.ROUTER);
    final String prefix = cluster.catalogue().prefix();
    final Deque<AutoCloseable> started = new ArrayDeque<>();
    try {
      final Map<String, Object> heatmapValues = new HashMap<>(Map.of(
          HeatmapConfig.APPLICATION_ID, PipelineNames.heatmapApplicationId(cluster.catalogue()),
          HeatmapConfig.STATE_DIR, stateDir.resolve("heatmap").toString()));
      heatmapValues.putAll(durability.settings(HeatmapConfig.PREFIX));
      freePortUnless(defaultPorts, heatmapValues, HeatmapConfig.HTTP_PORT);
      final StreamsApp heatmap = push(started, HeatmapApp.start(clusters.apply(App.HEATMAP_STREAMS),
          new HeatmapConfig(heatmapValues),
          "127.0.0.1"));
      final Map<String, Object> tokenBufferValues = new HashMap<>(Map.of(
          TokenBufferConfig.APPLICATION_ID, PipelineNames.tokenBufferApplicationId(cluster.catalogue()),
          TokenBufferConfig.STATE_DIR, stateDir.resolve("token-buffer").toString(),
          TokenBufferConfig.CUTOVER_ENABLED, cutover));
      // A fresh token for this run: whoever reads sequences back is given it (sequenceQueryToken()).
      final String queryToken = TenantSignature.newSecret();
      tokenBufferValues.put(TokenBufferConfig.QUERY_TOKEN, queryToken);
      tokenBufferValues.putAll(durability.settings(TokenBufferConfig.PREFIX));
      freePortUnless(defaultPorts, tokenBufferValues, TokenBufferConfig.HTTP_PORT);
      final StreamsApp tokenBuffer = push(started, TokenBufferApp.start(clusters.apply(App.TOKEN_BUFFER),
          new TokenBufferConfig(tokenBufferValues), "127.0.0.1", tenants));
      final Map<String, Object> routerValues = new HashMap<>(routerSettings);
      routerValues.put(RouterConfig.ROUTER_ID, prefix + "router-1");
      routerValues.put(RouterConfig.GROUP_ID, PipelineNames.routerGroup(cluster.catalogue()));
      freePortUnless(defaultPorts, routerValues, RouterConfig.HTTP_PORT);
      final RouterConfig routerConfig = new RouterConfig(routerValues);
      final MetricsServer routerServer = push(started, new MetricsServer("router", http -> { })
          .notReadyYet().start("127.0.0.1", routerConfig.httpPort()));
      final Router router = push(started, new Router(cluster, routerConfig, policy, tenants,
          routerServer.registry()));
      routerServer.readyWhen(router::isReady, "reading the heatmap");
      heatmap.awaitRunning(STARTUP);
      tokenBuffer.awaitRunning(STARTUP);
      if (!router.awaitStarted(STARTUP)) {
        throw new TimeoutException("Router did not read the heatmap to its end within " + STARTUP);
      }
      return new Pipeline(heatmap, tokenBuffer, queryToken, routerServer, router);
    } catch (final InterruptedException | TimeoutException | RuntimeException e) {
      // Close what did start, newest first, so a failed start leaves no thread or port behind.
      started.forEach(Pipeline::closeQuietly);
      throw e;
    }
  }

  /** Port 0 (a free one) for {@code portKey}, unless the app's own default port is wanted. */
  private static void freePortUnless(final boolean defaultPorts, final Map<String, Object> values,
      final String portKey) {
    if (!defaultPorts) {
      values.put(portKey, 0);
    }
  }

  private static <T extends AutoCloseable> T push(final Deque<AutoCloseable> started, final T piece) {
    started.push(piece);
    return piece;
  }

  private static void closeQuietly(final AutoCloseable piece) {
    try {
      piece.close();
    } catch (final Exception e) {
      LOG.warn("Closing {} after a failed start failed too", piece, e);
    }
  }

  /** The router's current heatmap snapshot. */
  public Heatmap routerHeatmap() {
    return router.heatmap();
  }

  /**
   * Waits until the router's heatmap has a row for each of {@code instanceIds}.
   *
   * @throws IllegalStateException when it still lacks one after {@code timeout}
   */
  public void awaitHeatmap(final List<String> instanceIds, final Duration timeout) throws InterruptedException {
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (!instanceIds.stream().allMatch(id -> router.heatmap().row(id) != null)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("The router's heatmap did not show " + instanceIds + " within "
            + timeout.toSeconds() + " s; look for errors above (telemetry, heatmap-streams)");
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  /** The base URL of token-buffer's HTTP server (metrics, sequence queries). */
  public String tokenBufferUrl() {
    return "http://127.0.0.1:" + tokenBuffer.server().port();
  }

  /** The token token-buffer's sequence queries ask of their callers ({@code tokenbuffer.query.token}). */
  public String sequenceQueryToken() {
    return queryToken;
  }

  /** The in-process router's meters. */
  public MeterRegistry routerMeters() {
    return routerServer.registry();
  }

  /** The metrics URLs of the apps, by app name. */
  public Map<String, String> metricsUrls() {
    return Map.of(
        "heatmap-streams", "http://127.0.0.1:" + heatmap.server().port() + "/metrics",
        "token-buffer", "http://127.0.0.1:" + tokenBuffer.server().port() + "/metrics",
        "router", "http://127.0.0.1:" + routerServer.port() + "/metrics");
  }

  @Override
  public void close() {
    router.close();
    routerServer.close();
    tokenBuffer.close();
    heatmap.close();
  }
}
