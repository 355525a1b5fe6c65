package io.zerolayer.bench.chaos;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.FleetConfig;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.runtime.StreamsDurability;
import io.zerolayer.runtime.StreamsMembership;
import io.zerolayer.runtime.tenant.TenantSignature;
import io.zerolayer.tokenbuffer.TokenBufferConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The pipeline as processes, each of which a chaos run may kill: one heatmap-streams, two
 * token-buffers, two routers in one group and two workers of one simulated instance each, in two
 * zones. The streams apps keep their topics and stores as durable as the cluster allows.
 */
final class ChaosApps implements AutoCloseable {

  /** How long an app may take to start, restoring its stores included, on a busy 2-core machine. */
  static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

  private final List<AppProcess> apps = new ArrayList<>();

  private ChaosApps() {
  }

  /**
   * Starts every app, each once the one before is ready.
   *
   * @param tenantsFile the routers' tenants
   * @param dir where the apps' stores and logs go
   */
  static ChaosApps start(final ClusterSettings settings, final StreamsDurability durability, final Path tenantsFile,
      final Path dir, final PrintStream out) throws InterruptedException {
    final TopicCatalogue catalogue = settings.catalogue();
    final Map<String, String> cluster = settings.environment();
    final ChaosApps started = new ChaosApps();
    try {
      final Map<String, Object> heatmap = new HashMap<>(durability.settings(HeatmapConfig.PREFIX));
      heatmap.put(HeatmapConfig.APPLICATION_ID, PipelineNames.heatmapApplicationId(catalogue));
      heatmap.put(HeatmapConfig.STATE_DIR, dir.resolve("heatmap-streams").toString());
      heatmap.put(HeatmapConfig.PREFIX + StreamsMembership.INSTANCE_ID, "heatmap-streams");
      started.add(AppProcess.start("heatmap-streams", AppRole.HEATMAP_STREAMS, cluster, heatmap, dir), out);
      final String queryToken = TenantSignature.newSecret();
      for (int i = 1; i <= 2; i++) {
        final Map<String, Object> tokenBuffer = new HashMap<>(durability.settings(TokenBufferConfig.PREFIX));
        tokenBuffer.put(TokenBufferConfig.APPLICATION_ID, PipelineNames.tokenBufferApplicationId(catalogue));
        tokenBuffer.put(TokenBufferConfig.STATE_DIR, dir.resolve("token-buffer-" + i).toString());
        tokenBuffer.put(TokenBufferConfig.QUERY_TOKEN, queryToken);
        tokenBuffer.put(TokenBufferConfig.PREFIX + StreamsMembership.INSTANCE_ID, "token-buffer-" + i);
        started.add(AppProcess.start("token-buffer-" + i, AppRole.TOKEN_BUFFER, cluster, tokenBuffer, dir), out);
      }
      for (int i = 1; i <= 2; i++) {
        started.add(AppProcess.start("router-" + i, AppRole.ROUTER, cluster, Map.of(
            RouterConfig.ROUTER_ID, catalogue.prefix() + "router-" + i,
            RouterConfig.GROUP_ID, PipelineNames.routerGroup(catalogue),
            RouterConfig.TENANTS_FILE, tenantsFile.toString()), dir), out);
      }
      for (int i = 1; i <= 2; i++) {
        started.add(AppProcess.start("worker-" + i, AppRole.WORKER, cluster, Map.of(FleetConfig.INSTANCES, 1,
            FleetConfig.ZONES, "zone-" + (char) ('a' + i - 1), FleetConfig.ID_PREFIX, "w" + i + "-"), dir), out);
      }
      return started;
    } catch (final InterruptedException | RuntimeException e) {
      started.close();
      throw e;
    }
  }

  /** Adds the app once it is ready: one at a time, so that their starts do not starve one another of CPU. */
  private void add(final AppProcess app, final PrintStream out) throws InterruptedException {
    apps.add(app);
    final long startedAt = System.nanoTime();
    app.awaitReady(READY_TIMEOUT);
    out.printf("  %s ready in %,d ms%n", app.name(), (System.nanoTime() - startedAt) / 1_000_000);
  }

  /** One of the apps in {@code role}, chosen at random. */
  AppProcess pick(final AppRole role, final Random random) {
    final List<AppProcess> candidates = apps.stream().filter(app -> app.role() == role).toList();
    return candidates.get(random.nextInt(candidates.size()));
  }

  @Override
  public void close() {
    // Workers and routers first, so nothing is left half-handed to an app already gone.
    for (int i = apps.size() - 1; i >= 0; i--) {
      apps.get(i).close();
    }
  }
}
