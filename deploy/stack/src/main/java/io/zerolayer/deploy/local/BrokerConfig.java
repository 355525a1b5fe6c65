package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * server.properties of the local broker: one node in KRaft combined mode (broker and controller)
 * on 127.0.0.1, with every internal topic at replication factor 1.
 *
 * @param brokerPort port of the PLAINTEXT listener that clients use
 * @param controllerPort port of the CONTROLLER listener
 * @param logDir where the broker keeps its data
 */
public record BrokerConfig(int brokerPort, int controllerPort, Path logDir) {

  static final String HOST = FreePorts.HOST;

  public BrokerConfig {
    requireNonNull(logDir, "logDir");
    if (brokerPort == controllerPort) {
      throw new IllegalArgumentException("Broker and controller need different ports, both are " + brokerPort);
    }
  }

  public String bootstrapServers() {
    return HOST + ":" + brokerPort;
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
    settings.put("listeners", "PLAINTEXT://" + bootstrapServers() + ",CONTROLLER://" + controllerEndpoint());
    settings.put("advertised.listeners", "PLAINTEXT://" + bootstrapServers() + ",CONTROLLER://" + controllerEndpoint());
    settings.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
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
