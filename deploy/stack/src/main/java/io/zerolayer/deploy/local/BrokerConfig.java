package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * server.properties of a local Kafka node in KRaft combined mode (broker and controller) on
 * 127.0.0.1. Alone (no {@link Quorum}) it is a one-node cluster with every internal topic at
 * replication factor 1. As one of a {@link Quorum} of three or more, every topic it creates by
 * default, internal ones included, gets three replicas and needs two in sync, the coordinators'
 * topics have 5 partitions, not 50, and a broker that stops heartbeating is fenced after 3 s (the
 * default is 9), so that a killed node's partitions move on and a restarted one is back as
 * quickly as a test or a demo of faults wants. Without {@link Tls} its
 * listeners are PLAINTEXT. With it the broker speaks TLS only, under Kafka's ACL authorizer: an SSL
 * listener that asks every client for a certificate (principal {@code User:<CN>}; the broker
 * itself and the stack's admin are super users), a SASL_SSL listener for SCRAM-SHA-512 users,
 * and the controller's listener on TLS too. Every other principal gets only what ACLs grant it.
 *
 * @param brokerPort port of the listener clients use: PLAINTEXT, or SSL with {@link Tls}
 * @param controllerPort port of the CONTROLLER listener
 * @param logDir where the broker keeps its data
 * @param tls the stores and SASL port of a broker on TLS, or null for PLAINTEXT
 * @param quorum this node's place among several, or null for a cluster of one node
 */
public record BrokerConfig(int brokerPort, int controllerPort, Path logDir, Tls tls, Quorum quorum) {

  static final String HOST = FreePorts.HOST;
  /** Principal of the broker's own certificate: a super user, as brokers must be to each other. */
  public static final String BROKER_PRINCIPAL = "broker";
  /** Principal of the certificate the stack provisions with: a super user. */
  public static final String ADMIN_PRINCIPAL = "admin";

  /**
   * The TLS side of a secured broker.
   *
   * @param saslPort port of the SASL_SSL listener (SCRAM-SHA-512)
   * @param keystore the broker's key and certificate ({@code CN=broker})
   * @param truststore the authority clients' certificates must chain to
   * @param password the password of both stores and of the key
   * @param storeType the stores' type (PKCS12)
   * @param jwksUrl where the SASL_SSL listener also takes OAUTHBEARER tokens' signing keys from
   *     (Kafka's own validator; principal {@code User:<sub>}, audience {@value #OAUTH_AUDIENCE}), or
   *     null for SCRAM alone
   */
  public record Tls(int saslPort, Path keystore, Path truststore, String password, String storeType,
      String jwksUrl) {
    public Tls {
      requireNonNull(keystore, "keystore");
      requireNonNull(truststore, "truststore");
      requireNonNull(password, "password");
      requireNonNull(storeType, "storeType");
    }
  }

  /**
   * A node of a cluster of several, all of them controllers (a static quorum).
   *
   * @param nodeId this node's id
   * @param voters every node as {@code <id>@<host>:<controller port>}, this one included
   */
  public record Quorum(int nodeId, List<String> voters) {
    /** Replicas of a topic and of the internal ones. */
    public static final int REPLICAS = 3;
    /** Replicas that must acknowledge a write. */
    public static final int MIN_IN_SYNC = 2;

    public Quorum {
      voters = List.copyOf(voters);
      if (voters.size() < REPLICAS) {
        throw new IllegalArgumentException("A quorum needs at least " + REPLICAS + " nodes, got " + voters);
      }
      if (voters.stream().noneMatch(voter -> voter.startsWith(nodeId + "@"))) {
        throw new IllegalArgumentException("Node " + nodeId + " is not among the voters " + voters);
      }
    }
  }

  /** The audience an OAUTHBEARER token must name for the broker to take it. */
  public static final String OAUTH_AUDIENCE = "kafka";

  public BrokerConfig {
    requireNonNull(logDir, "logDir");
    if (quorum != null && tls != null) {
      throw new IllegalArgumentException("A node of a quorum runs on PLAINTEXT only");
    }
    final int saslPort = tls == null ? 0 : tls.saslPort();
    if (brokerPort == controllerPort || saslPort == brokerPort || saslPort == controllerPort) {
      throw new IllegalArgumentException("Broker, controller and SASL listeners need different ports: "
          + brokerPort + ", " + controllerPort + ", " + saslPort);
    }
  }

  /** A one-node cluster with PLAINTEXT and CONTROLLER listeners only. */
  public BrokerConfig(final int brokerPort, final int controllerPort, final Path logDir) {
    this(brokerPort, controllerPort, logDir, null, null);
  }

  /** A one-node cluster, on TLS with {@code tls}. */
  public BrokerConfig(final int brokerPort, final int controllerPort, final Path logDir, final Tls tls) {
    this(brokerPort, controllerPort, logDir, tls, null);
  }

  /** {@code 127.0.0.1:<port>} of the listener clients use (SSL when the broker is on TLS). */
  public String bootstrapServers() {
    return HOST + ":" + brokerPort;
  }

  /** {@code 127.0.0.1:<port>} of the SASL_SSL listener. */
  public String saslBootstrapServers() {
    if (tls == null) {
      throw new IllegalStateException("this broker has no SASL listener; start it on TLS");
    }
    return HOST + ":" + tls.saslPort();
  }

  public String controllerEndpoint() {
    return HOST + ":" + controllerPort;
  }

  /** The settings, in the order they are written. */
  public Map<String, String> settings() {
    final Map<String, String> settings = new LinkedHashMap<>();
    settings.put("process.roles", "broker,controller");
    if (quorum == null) {
      settings.put("node.id", "1");
      // 4.x style dynamic quorum: formatted with --standalone, so no controller.quorum.voters.
      settings.put("controller.quorum.bootstrap.servers", controllerEndpoint());
    } else {
      settings.put("node.id", Integer.toString(quorum.nodeId()));
      settings.put("controller.quorum.voters", String.join(",", quorum.voters()));
    }
    final String client = tls == null ? "PLAINTEXT" : "SSL";
    final String sasl = tls == null ? "" : ",SASL_SSL://" + saslBootstrapServers();
    settings.put("listeners", client + "://" + bootstrapServers() + ",CONTROLLER://" + controllerEndpoint() + sasl);
    settings.put("advertised.listeners", client + "://" + bootstrapServers() + ",CONTROLLER://"
        + controllerEndpoint() + sasl);
    settings.put("listener.security.protocol.map", tls == null ? "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
        : "SSL:SSL,CONTROLLER:SSL,SASL_SSL:SASL_SSL");
    if (tls != null) {
      settings.putAll(tlsSettings());
    }
    settings.put("inter.broker.listener.name", client);
    settings.put("controller.listener.names", "CONTROLLER");
    settings.put("log.dirs", logDir.toAbsolutePath().toString());
    settings.put("num.partitions", "1");
    settings.put("auto.create.topics.enable", "false");
    final String replicas = Integer.toString(quorum == null ? 1 : Quorum.REPLICAS);
    final String minInSync = Integer.toString(quorum == null ? 1 : Quorum.MIN_IN_SYNC);
    settings.put("default.replication.factor", replicas);
    settings.put("min.insync.replicas", minInSync);
    settings.put("offsets.topic.replication.factor", replicas);
    settings.put("transaction.state.log.replication.factor", replicas);
    settings.put("transaction.state.log.min.isr", minInSync);
    settings.put("share.coordinator.state.topic.replication.factor", replicas);
    settings.put("share.coordinator.state.topic.min.isr", minInSync);
    if (quorum != null) {
      settings.put("broker.heartbeat.interval.ms", "500");
      settings.put("broker.session.timeout.ms", "3000");
      // Every node restarted after a crash recovers each replica it holds; 5 partitions of each
      // coordinator topic instead of 50 keep that short on a small machine.
      settings.put("offsets.topic.num.partitions", "5");
      settings.put("transaction.state.log.num.partitions", "5");
    }
    settings.put("group.initial.rebalance.delay.ms", "0");
    settings.put("group.streams.initial.rebalance.delay.ms", "0");
    // The apps commit a transaction every 10 to 100 ms. A record sent into the next transaction
    // before the broker has written the last one's markers waits on the broker, re-checked every
    // 5 ms, instead of failing back with CONCURRENT_TRANSACTIONS: the producer would wait out its
    // 100 ms retry backoff (up to 1 s on repeats) and resend the batches behind it out of order.
    settings.put("add.partitions.to.txn.retry.backoff.ms", "5");
    settings.put("add.partitions.to.txn.retry.backoff.max.ms", "5000");
    // The default 128 MiB dedupe buffer would take a quarter of the broker's small heap.
    settings.put("log.cleaner.dedupe.buffer.size", String.valueOf(32L * 1024 * 1024));
    return settings;
  }

  private Map<String, String> tlsSettings() {
    final Map<String, String> settings = new LinkedHashMap<>();
    settings.put("ssl.keystore.location", tls.keystore().toAbsolutePath().toString());
    settings.put("ssl.keystore.password", tls.password());
    settings.put("ssl.keystore.type", tls.storeType());
    settings.put("ssl.key.password", tls.password());
    settings.put("ssl.truststore.location", tls.truststore().toAbsolutePath().toString());
    settings.put("ssl.truststore.password", tls.password());
    settings.put("ssl.truststore.type", tls.storeType());
    settings.put("ssl.client.auth", "required");
    settings.put("listener.name.sasl_ssl.ssl.client.auth", "none");
    settings.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]+)$/$1/,DEFAULT");
    settings.put("sasl.enabled.mechanisms", tls.jwksUrl() == null ? "SCRAM-SHA-512" : "SCRAM-SHA-512,OAUTHBEARER");
    settings.put("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required;");
    if (tls.jwksUrl() != null) {
      settings.put("listener.name.sasl_ssl.oauthbearer.sasl.jaas.config",
          "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;");
      settings.put("listener.name.sasl_ssl.oauthbearer.sasl.server.callback.handler.class",
          "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler");
      settings.put("sasl.oauthbearer.jwks.endpoint.url", tls.jwksUrl());
      settings.put("sasl.oauthbearer.expected.audience", OAUTH_AUDIENCE);
    }
    settings.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    settings.put("super.users", "User:" + BROKER_PRINCIPAL + ";User:" + ADMIN_PRINCIPAL);
    settings.put("allow.everyone.if.no.acl.found", "false");
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
