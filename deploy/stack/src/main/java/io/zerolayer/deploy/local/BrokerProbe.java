package io.zerolayer.deploy.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** Asks a starting broker whether it serves clients: its port accepts, then describeCluster answers. */
final class BrokerProbe implements AutoCloseable, StartupWait.Probe {

  private static final int TIMEOUT_MS = 2_000;

  private final BrokerConfig config;
  private Admin admin;

  BrokerProbe(final BrokerConfig config) {
    this.config = config;
  }

  @Override
  public boolean ready() throws Exception {
    // The admin client is created only once the port accepts, so it does not log a warning for
    // every refused connection while the JVM boots.
    if (admin == null) {
      if (!accepts()) {
        return false;
      }
      admin = Admin.create(Map.of(
          CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers(),
          AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS,
          AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS,
          AdminClientConfig.CLIENT_ID_CONFIG, "zerolayer-stack-probe"));
    }
    return !admin.describeCluster().nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).isEmpty();
  }

  private boolean accepts() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(BrokerConfig.HOST, config.brokerPort()), TIMEOUT_MS);
      return true;
    } catch (final IOException e) {
      return false;
    }
  }

  @Override
  public void close() {
    if (admin != null) {
      admin.close(Duration.ofSeconds(2));
    }
  }
}
