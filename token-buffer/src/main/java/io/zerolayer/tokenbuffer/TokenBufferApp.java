package io.zerolayer.tokenbuffer;

import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.ClusterSettings;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.runtime.StreamsSettings;
import java.util.concurrent.CountDownLatch;

/** token-buffer as its own process: settings from the environment, runs until stopped. */
public final class TokenBufferApp {

  private TokenBufferApp() {
  }

  /** Starts the token-buffer topology and its HTTP server. */
  public static StreamsApp start(final ClusterSettings cluster, final TokenBufferConfig config, final String host) {
    final MetricsServer server = new MetricsServer("token-buffer", http -> { });
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    return new StreamsApp(
        TokenBufferTopology.build(cluster.catalogue(), serdes, server.registry()),
        StreamsSettings.of(cluster, config.applicationId(), config.stateDir(),
            cluster.catalogue().name(Topics.INFERENCE_DLQ)),
        server.start(host, config.httpPort()));
  }

  public static void main(final String[] args) throws InterruptedException {
    final StreamsApp app = start(ClusterSettings.fromEnvironment(System.getenv()),
        TokenBufferConfig.fromEnvironment(System.getenv()), "0.0.0.0");
    final CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      app.close();
      stopped.countDown();
    }, "token-buffer-shutdown"));
    stopped.await();
  }
}
