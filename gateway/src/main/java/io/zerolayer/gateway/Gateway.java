package io.zerolayer.gateway;

import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.SequenceQuery;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.gateway.internal.Cancels;
import io.zerolayer.gateway.internal.Door;
import io.zerolayer.gateway.internal.Endpoints;
import io.zerolayer.gateway.internal.ModelDirectory;
import io.zerolayer.gateway.internal.Reconnects;
import io.zerolayer.gateway.internal.Relay;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.runtime.tenant.TenantSignature;
import java.time.Duration;

/**
 * A running HTTP gateway: OpenAI's chat and text completions, Anthropic's messages and the model
 * list under {@code /v1}, beside {@code /health}, {@code /ready} and {@code /metrics}. It
 * publishes each request to the ingress topic, signed for its tenant, and streams its response
 * back as the workers write it.
 */
public final class Gateway implements AutoCloseable {

  private final InferenceClient client;
  private final Cancels cancels;
  private final ModelDirectory models;
  private final MetricsServer server;
  private final String host;

  private Gateway(final GatewayConfig config, final TenantDirectory tenants, final ClusterSettings cluster,
      final ContractSerdes serdes) {
    final TenantSignature signature = new TenantSignature(config.signingSecret());
    host = config.httpHost();
    server = new MetricsServer("gateway", http -> { }).notReadyYet();
    client = new InferenceClient(cluster, serdes, chunk -> { }, config.partitionShare());
    models = new ModelDirectory(cluster, serdes);
    cancels = new Cancels(cluster, serdes, models::instances);
    final Door door = new Door(config.lagTarget(), config.openAnswers(), config.overloadRetryAfter(),
        System::currentTimeMillis, server.registry());
    final Relay relay = new Relay(client, cancels, door, signature, config.firstTokenTimeout(),
        config.streamIdleTimeout(), server.registry());
    final Reconnects reconnects = new Reconnects(client, new SequenceQuery(config.sequenceQueryUrl(),
        config.sequenceQueryToken(), Duration.ofSeconds(2), Duration.ofMillis(200)), relay);
    server.routes(new Endpoints(tenants, models, relay, reconnects, config.maxBodyBytes(), config.defaultMaxTokens(),
        config.maxTokens())::addTo);
    server.readyWhen(models::isReady, "reading the heatmap's models");
  }

  /**
   * Starts a gateway; the error says which setting is wrong.
   *
   * @param tenants whose API keys it accepts: the routers' tenants
   */
  public static Gateway start(final GatewayConfig config, final TenantDirectory tenants, final ClusterSettings cluster,
      final ContractSerdes serdes) {
    final Gateway gateway = new Gateway(config, tenants, cluster, serdes);
    gateway.server.start(config.httpHost(), config.httpPort());
    return gateway;
  }

  /** The port it listens on. */
  public int port() {
    return server.port();
  }

  /** The base URL an OpenAI client is given ({@code http://host:port/v1}). */
  public String baseUrl() {
    return "http://" + host + ":" + port() + "/v1";
  }

  @Override
  public void close() {
    server.close();
    client.close();
    cancels.close();
    models.close();
  }
}
