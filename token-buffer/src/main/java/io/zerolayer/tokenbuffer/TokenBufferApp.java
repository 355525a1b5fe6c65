package io.zerolayer.tokenbuffer;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.runtime.StreamsMembership;
import io.zerolayer.runtime.StreamsSettings;
import io.zerolayer.runtime.WrittenSchemas;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.tokenbuffer.internal.InputLag;
import io.zerolayer.tokenbuffer.query.SequenceQueries;
import io.zerolayer.tokenbuffer.query.SequenceResource;
import io.zerolayer.tokenbuffer.query.StoreSequenceQueries;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;

/**
 * token-buffer as its own process: settings from the environment, runs until stopped. Its HTTP
 * server answers {@code GET /v1/sequences/{id}} (the sequence so far) besides the metrics.
 */
public final class TokenBufferApp {

  private TokenBufferApp() {
  }

  /**
   * Starts the token-buffer topology and its HTTP server.
   *
   * @param tenants the tenants who may read their own sequences with their API key
   * @throws org.apache.kafka.common.config.ConfigException when the query token is not set
   */
  public static StreamsApp start(final ClusterSettings cluster, final TokenBufferConfig config, final String host,
      final TenantDirectory tenants) {
    final AtomicReference<SequenceQueries> queries = new AtomicReference<>();
    final MetricsServer server = new MetricsServer("token-buffer", new SequenceResource(queries::get,
        config.queryToken(), tenants)::register)
        .notReadyYet().start(host, config.httpPort());
    final HostInfo self = new HostInfo(config.advertisedHost(), server.port());
    final Map<String, Object> props = StreamsSettings.of(cluster, config.applicationId(), config.stateDir(),
        cluster.catalogue().name(Topics.INFERENCE_DLQ), config.durability());
    props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, self.host() + ":" + self.port());
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.commitInterval().toMillis());
    StreamsMembership.applyTo(props, config.instanceId());
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    WrittenSchemas.ofChangelogs(serdes, config.applicationId(), TokenBufferTopology.CHANGELOG_VALUES);
    WrittenSchemas.ofTopics(serdes, cluster.catalogue(),
        List.of(Topics.RESPONSES, Topics.STALLS, Topics.SEQUENCE_HOLDS));
    final InputLag inputLag = new InputLag(cluster.catalogue().name(Topics.TOKENS), TokenBufferTopology.BEHIND_RECORDS);
    final StreamsApp app = new StreamsApp(
        TokenBufferTopology.build(config, cluster.catalogue(), serdes, server.registry(), inputLag), props, server);
    inputLag.readFrom(app.streams()::metrics);
    queries.set(new StoreSequenceQueries(app.streams(), self));
    return app;
  }

  public static void main(final String[] args) throws InterruptedException {
    final TokenBufferConfig config = TokenBufferConfig.fromEnvironment(System.getenv());
    final StreamsApp app = start(ClusterSettings.fromEnvironment(System.getenv()), config, config.httpHost(),
        config.tenantsFile().map(TenantDirectory::fromFile).orElse(TenantDirectory.of(List.of())));
    ShutdownSignal.exitOnFailure("token-buffer", app.failure());
    ShutdownSignal.awaitThenClose("token-buffer", app);
  }
}
