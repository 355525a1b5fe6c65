package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BrokerConfigTest {

  private final BrokerConfig config = new BrokerConfig(19092, 19093, Path.of("/tmp/stack/kraft-combined-logs"));

  @Test
  void shouldRunOneNodeAsBrokerAndControllerWithA4xStyleBootstrapQuorum() throws IOException {
    final Properties properties = load(config.render());

    assertThat(properties)
        .containsEntry("process.roles", "broker,controller")
        .containsEntry("node.id", "1")
        .containsEntry("controller.quorum.bootstrap.servers", "127.0.0.1:19093")
        .containsEntry("controller.listener.names", "CONTROLLER")
        .doesNotContainKey("controller.quorum.voters");
  }

  @Test
  void shouldListenOnlyOnLoopbackWithTheChosenPorts() throws IOException {
    final Properties properties = load(config.render());

    assertThat(properties)
        .containsEntry("listeners", "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093")
        .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093")
        .containsEntry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    assertThat(config.bootstrapServers()).isEqualTo("127.0.0.1:19092");
  }

  @Test
  void shouldSpeakOnlyTlsUnderTheAclAuthorizerOnlyWhenAskedTo() throws IOException {
    final BrokerConfig.Tls tls = new BrokerConfig.Tls(19094, Path.of("/tmp/broker.p12"), Path.of("/tmp/trust.p12"),
        "secret", "PKCS12", null);
    final Properties secured = load(new BrokerConfig(19092, 19093, Path.of("/tmp/logs"), tls).render());

    assertThat(secured)
        .containsEntry("listeners", "SSL://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093,SASL_SSL://127.0.0.1:19094")
        .containsEntry("listener.security.protocol.map", "SSL:SSL,CONTROLLER:SSL,SASL_SSL:SASL_SSL")
        .containsEntry("inter.broker.listener.name", "SSL")
        .containsEntry("ssl.client.auth", "required")
        .containsEntry("listener.name.sasl_ssl.ssl.client.auth", "none")
        .containsEntry("ssl.keystore.location", "/tmp/broker.p12")
        .containsEntry("sasl.enabled.mechanisms", "SCRAM-SHA-512")
        .containsEntry("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
        .containsEntry("super.users", "User:broker;User:admin")
        .containsEntry("allow.everyone.if.no.acl.found", "false");
    assertThat(secured.getProperty("listeners")).doesNotContain("PLAINTEXT");
    assertThat(load(config.render())).doesNotContainKeys("sasl.enabled.mechanisms", "authorizer.class.name",
        "ssl.keystore.location");
    assertThatThrownBy(config::saslBootstrapServers).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldKeepDataInTheGivenDirectory() throws IOException {
    assertThat(load(config.render())).containsEntry("log.dirs", "/tmp/stack/kraft-combined-logs");
  }

  @Test
  void shouldReplicateEveryInternalTopicOnceAndNeverCreateTopicsOnTheFly() throws IOException {
    assertThat(load(config.render()))
        .containsEntry("offsets.topic.replication.factor", "1")
        .containsEntry("transaction.state.log.replication.factor", "1")
        .containsEntry("transaction.state.log.min.isr", "1")
        .containsEntry("share.coordinator.state.topic.replication.factor", "1")
        .containsEntry("share.coordinator.state.topic.min.isr", "1")
        .containsEntry("min.insync.replicas", "1")
        .containsEntry("num.partitions", "1")
        .containsEntry("auto.create.topics.enable", "false");
  }

  @Test
  void shouldNotDelayTheFirstRebalanceOfAGroup() throws IOException {
    assertThat(load(config.render()))
        .containsEntry("group.initial.rebalance.delay.ms", "0")
        .containsEntry("group.streams.initial.rebalance.delay.ms", "0");
  }

  @Test
  void shouldHoldARecordForTheNextTransactionUntilTheLastOneCompletesInsteadOfFailingIt() throws IOException {
    assertThat(load(config.render()))
        .containsEntry("add.partitions.to.txn.retry.backoff.ms", "5")
        .containsEntry("add.partitions.to.txn.retry.backoff.max.ms", "5000");
  }

  @Test
  void shouldEscapeBackslashesSoWindowsPathsSurviveThePropertiesSyntax() throws IOException {
    final BrokerConfig windows = new BrokerConfig(1, 2, Path.of("/tmp/a\\b"));

    assertThat(load(windows.render()).getProperty("log.dirs")).endsWith("a\\b");
  }

  @Test
  void shouldGiveEveryTopicOfAQuorumThreeReplicasTwoInSyncAndFenceASilentNodeQuickly() throws IOException {
    final List<String> voters = List.of("1@127.0.0.1:19093", "2@127.0.0.1:19193", "3@127.0.0.1:19293");
    final Properties node = load(new BrokerConfig(19192, 19193, Path.of("/tmp/node-2"), null,
        new BrokerConfig.Quorum(2, voters)).render());

    assertThat(node)
        .containsEntry("node.id", "2")
        .containsEntry("controller.quorum.voters", String.join(",", voters))
        .doesNotContainKey("controller.quorum.bootstrap.servers")
        .containsEntry("default.replication.factor", "3")
        .containsEntry("min.insync.replicas", "2")
        .containsEntry("offsets.topic.replication.factor", "3")
        .containsEntry("transaction.state.log.replication.factor", "3")
        .containsEntry("transaction.state.log.min.isr", "2")
        .containsEntry("broker.session.timeout.ms", "3000");
    assertThatThrownBy(() -> new BrokerConfig.Quorum(4, voters)).hasMessageContaining("not among the voters");
    assertThatThrownBy(() -> new BrokerConfig.Quorum(1, voters.subList(0, 2))).hasMessageContaining("at least 3");
  }

  @Test
  void shouldRejectTheSamePortForBrokerAndController() {
    assertThatThrownBy(() -> new BrokerConfig(9092, 9092, Path.of("logs")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("different ports");
  }

  private static Properties load(final String text) throws IOException {
    final Properties properties = new Properties();
    properties.load(new StringReader(text));
    return properties;
  }
}
