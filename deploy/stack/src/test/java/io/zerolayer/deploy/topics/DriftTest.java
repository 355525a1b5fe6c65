package io.zerolayer.deploy.topics;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DriftTest {

  private final TopicSpec decisions = TopicSpec.of(Topics.DECISIONS, new TopicCatalogue("t-"),
      ProvisioningProfile.LOCAL);

  @Test
  void shouldNameTheTopicWithTheDeploymentPrefixAndAddMinInsyncReplicasToTheCatalogueConfigs() {
    assertThat(decisions.name()).isEqualTo("t-" + Topics.DECISIONS.baseName());
    assertThat(decisions.partitions()).isEqualTo(Topics.DECISIONS.partitions());
    assertThat(decisions.configs())
        .containsAllEntriesOf(Topics.DECISIONS.configs())
        .containsEntry("min.insync.replicas", "1");
  }

  @Test
  void shouldFindNoDriftWhenTheClusterHasTheSpecAndMoreConfigs() {
    final Map<String, String> configs = new HashMap<>(decisions.configs());
    configs.put("segment.bytes", "1073741824");

    assertThat(Drift.between(decisions, observed(decisions.partitions(), 1, configs))).isEmpty();
  }

  @Test
  void shouldReportEachDifferingConfigWithBothValues() {
    final Map<String, String> configs = new HashMap<>(decisions.configs());
    configs.put("retention.ms", "1000");
    configs.remove("cleanup.policy");

    assertThat(Drift.between(decisions, observed(decisions.partitions(), 1, configs))).containsExactly(
        "t-routing.decisions.v1: cleanup.policy is unset on the cluster, the catalogue says delete",
        "t-routing.decisions.v1: retention.ms is 1000 on the cluster, the catalogue says "
            + Topics.DECISIONS.retention().toMillis());
  }

  @Test
  void shouldReportAPartitionCountAndReplicationFactorThatDiffer() {
    assertThat(Drift.between(decisions, observed(2, 3, decisions.configs())))
        .hasSize(2)
        .anySatisfy(finding -> assertThat(finding).startsWith(
            "t-routing.decisions.v1: has 2 partitions, the catalogue says " + decisions.partitions()))
        .anySatisfy(finding -> assertThat(finding).isEqualTo(
            "t-routing.decisions.v1: has replication factor 3, the profile says 1"));
  }

  private ObservedTopic observed(final int partitions, final int replicationFactor,
      final Map<String, String> configs) {
    return new ObservedTopic(decisions.name(), partitions, replicationFactor, configs);
  }
}
