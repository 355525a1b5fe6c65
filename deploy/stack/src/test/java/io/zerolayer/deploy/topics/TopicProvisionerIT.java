package io.zerolayer.deploy.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.local.KafkaBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TopicProvisionerIT {

  private KafkaBroker broker;
  private Admin admin;

  @BeforeAll
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void startBroker(@TempDir final Path workDir) {
    broker = KafkaBroker.start(workDir);
    admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
  }

  @AfterAll
  @Timeout(value = 1, unit = TimeUnit.MINUTES)
  void stopBroker() {
    if (admin != null) {
      admin.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void shouldCreateEveryCatalogueTopicWithItsPartitionsAndConfigs() throws Exception {
    final TopicCatalogue catalogue = uniqueCatalogue();

    final ProvisioningReport report = provisioner(catalogue).provision();

    assertThat(report.created()).containsExactlyElementsOf(names(catalogue));
    assertThat(report.unchanged()).isEmpty();
    assertThat(report.drift()).isEmpty();
    final Map<String, TopicDescription> descriptions = admin.describeTopics(names(catalogue)).allTopicNames().get();
    final Map<ConfigResource, Config> configs = admin.describeConfigs(resources(catalogue)).all().get();
    for (final Topic<?, ?> topic : Topics.ALL) {
      final String name = catalogue.name(topic);
      assertThat(descriptions.get(name).partitions()).as(name).hasSize(topic.partitions())
          .allSatisfy(partition -> assertThat(partition.replicas()).hasSize(1))
          .allSatisfy(partition -> assertThat(partition.leader()).isNotNull());
      final Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, name));
      topic.configs().forEach((key, value) -> assertThat(config.get(key).value()).as(name + " " + key)
          .isEqualTo(value));
      assertThat(config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG).value()).isEqualTo("1");
    }
  }

  @Test
  void shouldCreateNothingAndFindNoDriftWhenRunAgain() {
    final TopicCatalogue catalogue = uniqueCatalogue();
    provisioner(catalogue).provision();

    final ProvisioningReport second = provisioner(catalogue).provision();

    assertThat(second.created()).isEmpty();
    assertThat(second.unchanged()).containsExactlyElementsOf(names(catalogue));
    assertThat(second.drift()).isEmpty();
  }

  @Test
  void shouldReportButNotRepairATopicConfigAlteredOnTheBroker() throws Exception {
    final TopicCatalogue catalogue = uniqueCatalogue();
    provisioner(catalogue).provision();
    final ConfigResource decisions = new ConfigResource(ConfigResource.Type.TOPIC, catalogue.name(Topics.DECISIONS));
    admin.incrementalAlterConfigs(Map.of(decisions, List.of(new AlterConfigOp(
        new ConfigEntry(TopicConfig.RETENTION_MS_CONFIG, "1000"), AlterConfigOp.OpType.SET)))).all().get();

    final ProvisioningReport report = provisioner(catalogue).provision();

    assertThat(report.created()).isEmpty();
    assertThat(report.drift()).containsExactly(catalogue.name(Topics.DECISIONS) + ": retention.ms is 1000 on the "
        + "cluster, the catalogue says " + Topics.DECISIONS.retention().toMillis());
    assertThat(report.unchanged()).hasSize(Topics.ALL.size() - 1).doesNotContain(decisions.name());
    assertThat(admin.describeConfigs(List.of(decisions)).all().get().get(decisions)
        .get(TopicConfig.RETENTION_MS_CONFIG).value()).isEqualTo("1000");
  }

  @Test
  void shouldExplainThatTheProductionProfileNeedsMoreBrokersThanASingleNodeHas() {
    final TopicCatalogue catalogue = uniqueCatalogue();

    assertThatThrownBy(() -> new TopicProvisioner(admin, catalogue, ProvisioningProfile.PRODUCTION).provision())
        .isInstanceOf(ProvisioningException.class)
        .hasMessageContaining("use the local profile");
  }

  @Test
  void shouldFindNothingToChangeInTheLocalBrokersTransactionSettings() throws Exception {
    // Under transaction version 2, where the retry backoff is checked
    assertThat(admin.describeFeatures().featureMetadata().get().finalizedFeatures()
        .get(BrokerSettings.TRANSACTION_VERSION).maxVersionLevel()).isGreaterThanOrEqualTo((short) 2);
    assertThat(new BrokerSettings(admin, Duration.ofSeconds(30)).advice(ProvisioningProfile.LOCAL)).isEmpty();
  }

  @Test
  void shouldAdviseRaisingTheTransactionLogsReplicationForTheProductionProfile() {
    assertThat(new BrokerSettings(admin, Duration.ofSeconds(30)).advice(ProvisioningProfile.PRODUCTION))
        .singleElement().asString()
        .startsWith("broker 1: transaction.state.log.replication.factor 1 and transaction.state.log.min.isr 1 are"
            + " below the production profile's 3 and 2");
  }

  private TopicProvisioner provisioner(final TopicCatalogue catalogue) {
    return new TopicProvisioner(admin, catalogue, ProvisioningProfile.LOCAL);
  }

  private static TopicCatalogue uniqueCatalogue() {
    return new TopicCatalogue("it-" + UUID.randomUUID().toString().substring(0, 8) + ".");
  }

  private static List<String> names(final TopicCatalogue catalogue) {
    return Topics.ALL.stream().map(catalogue::name).toList();
  }

  private static Collection<ConfigResource> resources(final TopicCatalogue catalogue) {
    return names(catalogue).stream().map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList();
  }
}
