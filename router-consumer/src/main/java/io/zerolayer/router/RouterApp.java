package io.zerolayer.router;

import io.zerolayer.router.policy.RoutingPolicies;
import io.zerolayer.router.tenant.TenantDirectory;
import io.zerolayer.runtime.ClusterSettings;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A router as its own process: settings from the environment, runs until stopped. {@code GET
 * /ready} answers 503 until the router has read the heatmap to its end and takes requests. A
 * router stopped by an error ends the process with exit code 1, so that it is restarted.
 */
public final class RouterApp {

  private RouterApp() {
  }

  public static void main(final String[] args) throws InterruptedException {
    final RouterConfig config = RouterConfig.fromEnvironment(System.getenv());
    final ClusterSettings cluster = ClusterSettings.fromEnvironment(System.getenv());
    final TenantDirectory tenants = TenantDirectory.fromFile(config.tenantsFile());
    final AtomicReference<Router> running = new AtomicReference<>();
    final MetricsServer server = new MetricsServer("router", http -> http.get("/ready", ctx -> {
      final Router router = running.get();
      final boolean ready = router != null && router.isReady();
      ctx.status(ready ? 200 : 503).result(ready ? "ready" : "reading the heatmap");
    })).start("0.0.0.0", config.httpPort());
    final Router router = new Router(cluster, config, RoutingPolicies.named(config.policyName()), tenants,
        server.registry());
    running.set(router);
    // A router that stopped on an error must not linger as a healthy-looking process.
    router.failure().thenRun(() -> System.exit(1));
    ShutdownSignal.awaitThenClose("router", router, server);
  }
}
