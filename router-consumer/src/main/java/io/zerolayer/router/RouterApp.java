package io.zerolayer.router;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.router.policy.RoutingPolicies;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import io.zerolayer.runtime.tenant.TenantDirectory;

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
    final MetricsServer server = new MetricsServer("router", http -> { }).notReadyYet()
        .start(config.httpHost(), config.httpPort());
    final Router router = new Router(cluster, config,
        RoutingPolicies.named(config.policyName(), config.serviceObjective()), tenants, server.registry());
    server.readyWhen(router::isReady, "reading the heatmap");
    ShutdownSignal.exitOnFailure("router", router.failure());
    ShutdownSignal.awaitThenClose("router", router, server);
  }
}
