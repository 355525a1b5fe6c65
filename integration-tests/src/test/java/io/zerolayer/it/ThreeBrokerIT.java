package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.bench.chaos.ChaosOptions;
import io.zerolayer.bench.chaos.ChaosReport;
import io.zerolayer.bench.chaos.ChaosRun;
import io.zerolayer.bench.chaos.ChaosTarget;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.testsupport.ReplicatedCluster;
import io.zerolayer.testsupport.TestCluster;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fault harness of {@code zerolayer chaos} on three brokers of the test's own: every app in a
 * process of its own, sequences streaming at a steady pace, while the broker leading a partition
 * of the token log, of the decisions or of the token store's changelog is killed with
 * {@code kill -9} and restarted on its data, each app is killed with {@code kill -9} and restarted,
 * and the registry is paused. Every client still gets every token once and in order, and each
 * sequence's text is the simulated model's hash chain; every topic, the apps' own and Kafka's
 * internal ones included, keeps three replicas and two in sync.
 *
 * <p>{@code mvn verify} makes 6 faults (a leader's broker, each app, the registry for 10 s);
 * {@code -Dzerolayer.it.faults=55} makes 30 broker faults and 25 of the rest.
 */
@ExtendWith(TestCluster.class)
class ThreeBrokerIT {

  private static final int FAULTS = Integer.getInteger("zerolayer.it.faults", 6);
  private static final Duration PACE = Duration.ofMillis(250);
  private static final Duration REGISTRY_PAUSE = Duration.ofSeconds(10);

  @Test
  @Timeout(value = 60, unit = TimeUnit.MINUTES)
  void shouldLoseNothingThroughKillsOfLeadersAndOfEveryApp(final TestCluster.Handle shared) throws Exception {
    try (ReplicatedCluster cluster = ReplicatedCluster.start(shared);
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            cluster.handle().bootstrapServers()))) {
      final TopicCatalogue catalogue = cluster.handle().newCatalogue();
      final ChaosReport report = ChaosRun.run(new ChaosTarget(cluster.handle().settings(catalogue), cluster.nodes(),
          shared.registryPid(), cluster.handle().durability(), cluster.handle().stateDir(catalogue)),
          new ChaosOptions(FAULTS, PACE, REGISTRY_PAUSE, 23), System.out);
      report.print(System.out);

      assertThat(report.faults()).isEqualTo(FAULTS);
      assertThat(report.violations()).as("sequences lost, duplicated, reordered, spliced or unanswered, and faults"
          + " after which nothing was served").isZero();
      assertEveryTopicHasThreeReplicasTwoInSync(admin);
    }
  }

  private static void assertEveryTopicHasThreeReplicasTwoInSync(final Admin admin) throws Exception {
    final Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
        .get(10, TimeUnit.SECONDS);
    assertThat(topics).contains("__consumer_offsets", "__transaction_state")
        .anyMatch(topic -> topic.endsWith("-changelog"));
    assertThat(admin.describeTopics(topics).allTopicNames().get(10, TimeUnit.SECONDS).values())
        .allSatisfy(topic -> assertThat(topic.partitions()).as("replicas of %s", topic.name())
            .allSatisfy(partition -> assertThat(partition.replicas()).hasSize(3)));
    final Map<ConfigResource, Config> configs = admin.describeConfigs(topics.stream()
        .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic)).toList()).all().get();
    assertThat(configs).allSatisfy((resource, config) -> assertThat(config.get("min.insync.replicas").value())
        .as("min.insync.replicas of %s", resource.name()).isEqualTo("2"));
  }
}
