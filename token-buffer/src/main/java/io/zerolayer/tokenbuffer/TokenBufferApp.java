package io.zerolayer.tokenbuffer;

import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.ClusterSettings;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.runtime.StreamsSettings;

/** token-buffer as its own process: settings from the environment, runs until stopped. */
public final class TokenBufferApp {

  private TokenBufferApp() {
  }

  /** Starts the token-buffer topology and its HTTP server. */
  public static StreamsApp start(final ClusterSettings cluster, final TokenBufferConfig config, final String host) {
    final MetricsServer server = new MetricsServer("token-buffer", http -> { });
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    return new StreamsApp(
        TokenBufferTopology.build(config, cluster.catalogue(), serdes, server.registry()),
        StreamsSettings.of(cluster, config.applicationId(), config.stateDir(),
            cluster.catalogue().name(Topics.INFERENCE_DLQ)),
        server.start(host, config.httpPort()));
  }

  public static void main(final String[] args) throws InterruptedException {
    ShutdownSignal.awaitThenClose("token-buffer", start(ClusterSettings.fromEnvironment(System.getenv()),
        TokenBufferConfig.fromEnvironment(System.getenv()), "0.0.0.0"));
  }
}
