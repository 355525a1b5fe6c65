package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * server.properties of the local broker: one node in KRaft combined mode (broker and controller)
 * on 127.0.0.1, with every internal topic at replication factor 1. With a SASL port it also has
 * a SASL_PLAINTEXT listener (SCRAM-SHA-512 and -256) and Kafka's ACL authorizer, under which the
 * PLAINTEXT and CONTROLLER listeners' anonymous principal is a super user (the stack's own
 * provisioning and probes) and every SCRAM user gets only what ACLs grant it.
 *
 * @param brokerPort port of the PLAINTEXT listener that clients use
 * @param controllerPort port of the CONTROLLER listener
 * @param logDir where the broker keeps its data
 * @param saslPort port of the SASL_PLAINTEXT listener, or 0 for none
 */
public record BrokerConfig(int brokerPort, int controllerPort, Path logDir, int saslPort) {

  static final String HOST = FreePorts.HOST;

  public BrokerConfig {
    requireNonNull(logDir, "logDir");
    if (brokerPort == controllerPort || saslPort == brokerPort || saslPort == controllerPort) {
      throw new IllegalArgumentException("Broker, controller and SASL listeners need different ports: "
          + brokerPort + ", " + controllerPort + ", " + saslPort);
    }
  }

  /** A broker with PLAINTEXT and CONTROLLER listeners only. */
  public BrokerConfig(final int brokerPort, final int controllerPort, final Path logDir) {
    this(brokerPort, controllerPort, logDir, 0);
  }

  public String bootstrapServers() {
    return HOST + ":" + brokerPort;
  }

  /** {@code 127.0.0.1:<port>} of the SASL_PLAINTEXT listener. */
  public String saslBootstrapServers() {
    if (saslPort == 0) {
      throw new IllegalStateException("this broker has no SASL listener; start it with a SASL port");
    }
    return HOST + ":" + saslPort;
  }

  public String controllerEndpoint() {
    return HOST + ":" + controllerPort;
  }

  /** The settings, in the order they are written. */
  public Map<String, String> settings() {
    final Map<String, String> settings = new LinkedHashMap<>();
    settings.put("process.roles", "broker,controller");
    settings.put("node.id", "1");
    // 4.x style dynamic quorum: formatted with --standalone, so no controller.quorum.voters.
    settings.put("controller.quorum.bootstrap.servers", controllerEndpoint());
    final String sasl = saslPort == 0 ? "" : ",SASL_PLAINTEXT://" + saslBootstrapServers();
    settings.put("listeners", "PLAINTEXT://" + bootstrapServers() + ",CONTROLLER://" + controllerEndpoint() + sasl);
    settings.put("advertised.listeners", "PLAINTEXT://" + bootstrapServers() + ",CONTROLLER://" + controllerEndpoint()
        + sasl);
    settings.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
        + (saslPort == 0 ? "" : ",SASL_PLAINTEXT:SASL_PLAINTEXT"));
    if (saslPort != 0) {
      settings.put("sasl.enabled.mechanisms", "SCRAM-SHA-512,SCRAM-SHA-256");
      settings.put("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config",
          "org.apache.kafka.common.security.scram.ScramLoginModule required;");
      settings.put("listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config",
          "org.apache.kafka.common.security.scram.ScramLoginModule required;");
      settings.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
      settings.put("super.users", "User:ANONYMOUS");
      settings.put("allow.everyone.if.no.acl.found", "false");
    }
    settings.put("inter.broker.listener.name", "PLAINTEXT");
    settings.put("controller.listener.names", "CONTROLLER");
    settings.put("log.dirs", logDir.toAbsolutePath().toString());
    settings.put("num.partitions", "1");
    settings.put("auto.create.topics.enable", "false");
    settings.put("min.insync.replicas", "1");
    settings.put("offsets.topic.replication.factor", "1");
    settings.put("transaction.state.log.replication.factor", "1");
    settings.put("transaction.state.log.min.isr", "1");
    settings.put("share.coordinator.state.topic.replication.factor", "1");
    settings.put("share.coordinator.state.topic.min.isr", "1");
    settings.put("group.initial.rebalance.delay.ms", "0");
    settings.put("group.streams.initial.rebalance.delay.ms", "0");
    // The default 128 MiB dedupe buffer would take a quarter of the broker's small heap.
    settings.put("log.cleaner.dedupe.buffer.size", String.valueOf(32L * 1024 * 1024));
    return settings;
  }

  /** The file's content, in java.util.Properties syntax. */
  public String render() {
    final StringBuilder text = new StringBuilder("# Written by the Zerolayer local stack; rewritten on every start.\n");
    settings().forEach((key, value) -> text.append(key).append('=').append(escape(value)).append('\n'));
    return text.toString();
  }

  private static String escape(final String value) {
    return value.replace("\\", "\\\\");
  }
}
