package io.zerolayer.deploy.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** Asks a starting broker whether it serves clients: its port accepts, then describeCluster answers. */
final class BrokerProbe implements AutoCloseable, StartupWait.Probe {

  private static final int TIMEOUT_MS = 2_000;

  private final int port;
  private final Map<String, Object> clientProperties;
  private Admin admin;

  /**
   * @param port the port clients use
   * @param clientProperties bootstrap servers and security of a client that may describe the cluster
   */
  BrokerProbe(final int port, final Map<String, Object> clientProperties) {
    this.port = port;
    this.clientProperties = Map.copyOf(clientProperties);
  }

  @Override
  public boolean ready() throws Exception {
    // The admin client is created only once the port accepts, so it does not log a warning for
    // every refused connection while the JVM boots.
    if (admin == null) {
      if (!accepts()) {
        return false;
      }
      final Map<String, Object> props = new HashMap<>(clientProperties);
      props.putAll(Map.of(
          AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS,
          AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS,
          AdminClientConfig.CLIENT_ID_CONFIG, "zerolayer-stack-probe"));
      admin = Admin.create(props);
    }
    return !admin.describeCluster().nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).isEmpty();
  }

  private boolean accepts() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(BrokerConfig.HOST, port), TIMEOUT_MS);
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
