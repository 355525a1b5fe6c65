package io.zerolayer.heatmap;

import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.ClusterSettings;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.runtime.StreamsSettings;

/** heatmap-streams as its own process: settings from the environment, runs until stopped. */
public final class HeatmapApp {

  private HeatmapApp() {
  }

  /** Starts the heatmap topology and its HTTP server. */
  public static StreamsApp start(final ClusterSettings cluster, final HeatmapConfig config, final String host) {
    final MetricsServer server = new MetricsServer("heatmap-streams", http -> { });
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    return new StreamsApp(
        HeatmapTopology.build(config, cluster.catalogue(), serdes, server.registry()),
        StreamsSettings.of(cluster, config.applicationId(), config.stateDir(),
            cluster.catalogue().name(Topics.TELEMETRY_DLQ)),
        server.start(host, config.httpPort()));
  }

  public static void main(final String[] args) throws InterruptedException {
    ShutdownSignal.awaitThenClose("heatmap-streams", start(ClusterSettings.fromEnvironment(System.getenv()),
        HeatmapConfig.fromEnvironment(System.getenv()), "0.0.0.0"));
  }
}
