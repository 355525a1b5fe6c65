package io.zerolayer.heatmap;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.heatmap.query.HeatmapQueries;
import io.zerolayer.heatmap.query.HeatmapResource;
import io.zerolayer.heatmap.query.StoreHeatmapQueries;
import io.zerolayer.runtime.BoundedRocksDbMemory;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.runtime.StreamsMembership;
import io.zerolayer.runtime.StreamsSettings;
import io.zerolayer.runtime.WrittenSchemas;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;

/**
 * heatmap-streams as its own process: settings from the environment, runs until stopped. Its
 * HTTP server answers the heatmap's interactive queries besides the metrics.
 */
public final class HeatmapApp {

  private HeatmapApp() {
  }

  /** Starts the heatmap topology and its HTTP server. */
  public static StreamsApp start(final ClusterSettings cluster, final HeatmapConfig config, final String host) {
    final AtomicReference<HeatmapQueries> queries = new AtomicReference<>();
    final MetricsServer server = new MetricsServer("heatmap-streams", new HeatmapResource(queries::get)::register)
        .notReadyYet().start(host, config.httpPort());
    final HostInfo self = new HostInfo(config.advertisedHost(), server.port());
    final Map<String, Object> props = StreamsSettings.of(cluster, config.applicationId(), config.stateDir(),
        cluster.catalogue().name(Topics.TELEMETRY_DLQ), config.durability());
    props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, self.host() + ":" + self.port());
    StreamsMembership.applyTo(props, config.instanceId());
    props.put(BoundedRocksDbMemory.TOTAL_BYTES, config.getLong(HeatmapConfig.ROCKSDB_MEMORY_BYTES));
    props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, config.getLong(HeatmapConfig.CACHE_MAX_BYTES));
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    WrittenSchemas.ofChangelogs(serdes, config.applicationId(), HeatmapTopology.CHANGELOG_VALUES);
    WrittenSchemas.ofTopics(serdes, cluster.catalogue(), List.of(Topics.INSTANCE_SCORES, Topics.COMMANDS));
    final StreamsApp app = new StreamsApp(HeatmapTopology.build(config, cluster.catalogue(), serdes, server.registry(),
        telemetryPartitions(cluster)), props, server);
    queries.set(new StoreHeatmapQueries(app.streams(), self, config.millis(HeatmapConfig.WINDOW_SIZE_MS),
        config.millis(HeatmapConfig.WINDOW_ADVANCE_MS), config.millis(HeatmapConfig.HISTORY_WINDOW_MS)));
    return app;
  }

  /** The telemetry topic's partition count as the cluster has it: which task reports which zone. */
  private static int telemetryPartitions(final ClusterSettings cluster) {
    final String topic = cluster.catalogue().name(Topics.TELEMETRY);
    try (Admin admin = Admin.create(cluster.clientProperties())) {
      return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
          .partitions().size();
    } catch (final ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Cannot describe " + topic + " on " + cluster.bootstrapServers() + " (" + e
          + "); create the topics first (zerolayer topics) and check the broker is reachable", e);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while describing " + topic, e);
    }
  }

  public static void main(final String[] args) throws InterruptedException {
    final HeatmapConfig config = HeatmapConfig.fromEnvironment(System.getenv());
    final StreamsApp app = start(ClusterSettings.fromEnvironment(System.getenv()), config, config.httpHost());
    ShutdownSignal.exitOnFailure("heatmap-streams", app.failure());
    ShutdownSignal.awaitThenClose("heatmap-streams", app);
  }
}
