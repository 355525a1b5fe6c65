package io.zerolayer.router;

import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.tenant.TenantDirectory;
import io.zerolayer.runtime.ClusterSettings;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;

/** A router as its own process: settings from the environment, runs until stopped. */
public final class RouterApp {

  private RouterApp() {
  }

  public static void main(final String[] args) throws InterruptedException {
    final RouterConfig config = RouterConfig.fromEnvironment(System.getenv());
    final ClusterSettings cluster = ClusterSettings.fromEnvironment(System.getenv());
    final TenantDirectory tenants = TenantDirectory.fromFile(config.tenantsFile());
    final MetricsServer server = new MetricsServer("router", http -> { }).start("0.0.0.0", config.httpPort());
    final Router router = new Router(cluster, config, new LatencyAwarePolicy(), tenants, server.registry());
    ShutdownSignal.awaitThenClose("router", router, server);
  }
}
