package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.TopicCatalogue;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class StreamsDurabilityTest {

  private static final ConfigDef DEFINITION = StreamsDurability.define(new ConfigDef(), "app.");

  @Test
  void shouldGiveTheAppsOwnTopicsTheProductionProfileAndOneStandbyByDefault() {
    final StreamsDurability durability = StreamsDurability.of(new AbstractConfig(DEFINITION, Map.of()), "app.");

    assertThat(durability).isEqualTo(new StreamsDurability(3, 2, 1));
    final Map<String, Object> props = StreamsSettings.of(ClusterSettings.plaintext("localhost:9092", "mock://d",
        new TopicCatalogue("")), "app", Path.of("state"), "dlq", durability);
    assertThat(props).containsEntry(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3)
        .containsEntry("topic.min.insync.replicas", 2)
        .containsEntry(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
  }

  @Test
  void shouldReadWhatADeploymentSetsUnderTheAppsPrefix() {
    final AbstractConfig config = new AbstractConfig(DEFINITION, StreamsDurability.SINGLE_BROKER.settings("app."));

    assertThat(StreamsDurability.of(config, "app.")).isEqualTo(StreamsDurability.SINGLE_BROKER);
  }

  @Test
  void shouldRefuseAMinInSyncAboveTheReplicationFactor() {
    final AbstractConfig config = new AbstractConfig(DEFINITION, Map.of("app.streams.replication.factor", 1));

    assertThatThrownBy(() -> StreamsDurability.of(config, "app."))
        .hasMessageContaining("Need 1 <= min.insync.replicas <= replication factor")
        .hasMessageContaining("replication factor 1, min.insync.replicas 2");
  }
}
