package io.zerolayer.fleet;

import io.zerolayer.runtime.ClusterSettings;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A simulated fleet as its own process. {@code ZEROLAYER_FLEET_INSTANCES} (default 4) and
 * {@code ZEROLAYER_FLEET_ZONES} (comma-separated, default {@code zone-a,zone-b}) and
 * {@code ZEROLAYER_FLEET_ID_PREFIX} (default {@code gpu-}) shape it; its
 * metrics are served on {@code ZEROLAYER_FLEET_HTTP_PORT} (default 8085).
 */
public final class FleetApp {

  private FleetApp() {
  }

  public static void main(final String[] args) throws InterruptedException {
    final Map<String, String> env = System.getenv();
    final int size = Integer.parseInt(env.getOrDefault("ZEROLAYER_FLEET_INSTANCES", "4"));
    final List<String> zones = Arrays.asList(env.getOrDefault("ZEROLAYER_FLEET_ZONES", "zone-a,zone-b").split(","));
    final int port = Integer.parseInt(env.getOrDefault("ZEROLAYER_FLEET_HTTP_PORT", "8085"));
    final MetricsServer server = new MetricsServer("fleet-sim", http -> { }).start("0.0.0.0", port);
    ShutdownSignal.awaitThenClose("fleet-sim",
        Fleet.start(ClusterSettings.fromEnvironment(env), env.getOrDefault("ZEROLAYER_FLEET_ID_PREFIX", "gpu-"), size,
            zones, GpuProfile.standard(), server.registry()),
        server);
  }
}
