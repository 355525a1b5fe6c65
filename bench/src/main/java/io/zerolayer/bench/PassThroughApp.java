package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.Topic.Cleanup;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.runtime.StreamsDurability;
import io.zerolayer.runtime.StreamsSettings;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The floor a telemetry consumer cannot beat on a given broker: a Kafka Streams app with the
 * settings every Zerolayer streams app uses that copies each telemetry record, as bytes, to a
 * topic of its own. Reading, writing and committing in transactions is all it does.
 */
final class PassThroughApp {

  /** Where the copies go; one per catalogue prefix, shaped like the telemetry topic. */
  static final Topic<byte[], byte[]> TELEMETRY_COPY = new Topic<>("bench.telemetry-copy.v1", byte[].class,
      byte[].class, Topics.TELEMETRY.partitions(), Cleanup.DELETE, Topics.TELEMETRY.retention());

  static final String READ_TELEMETRY = "read-telemetry";
  static final String WRITE_COPY = "write-telemetry-copy";

  private PassThroughApp() {
  }

  /** The copy topology; no I/O. */
  static Topology topology(final TopicCatalogue catalogue) {
    final StreamsBuilder builder = new StreamsBuilder();
    builder.stream(catalogue.name(Topics.TELEMETRY),
            Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(READ_TELEMETRY))
        .to(catalogue.name(TELEMETRY_COPY), Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(WRITE_COPY));
    return builder.build();
  }

  /** The copy topic of a catalogue, to create before the first start (replication factor 1). */
  static NewTopic copyTopic(final TopicCatalogue catalogue) {
    return new NewTopic(catalogue.name(TELEMETRY_COPY), Optional.of(TELEMETRY_COPY.partitions()),
        Optional.of((short) 1)).configs(TELEMETRY_COPY.configs());
  }

  /** Starts the app with the heatmap's dead-letter topic and a metrics server on a free port. */
  static StreamsApp start(final ClusterSettings cluster, final String applicationId, final Path stateDir) {
    requireNonNull(cluster, "cluster");
    return new StreamsApp(topology(cluster.catalogue()),
        StreamsSettings.of(cluster, applicationId, stateDir, cluster.catalogue().name(Topics.TELEMETRY_DLQ),
            StreamsDurability.SINGLE_BROKER),
        new MetricsServer("telemetry-pass-through", http -> { }).start("127.0.0.1", 0));
  }
}
