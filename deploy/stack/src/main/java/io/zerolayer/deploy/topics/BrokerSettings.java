package io.zerolayer.deploy.topics;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * Reads the brokers' settings that the apps' transactions depend on and says which to change. It
 * changes nothing: most of them are static and take a broker restart.
 */
public final class BrokerSettings {

  static final String TXN_RETRY_BACKOFF = "add.partitions.to.txn.retry.backoff.ms";
  static final String TXN_RETRY_BACKOFF_MAX = "add.partitions.to.txn.retry.backoff.max.ms";
  static final String TXN_LOG_REPLICATION = "transaction.state.log.replication.factor";
  static final String TXN_LOG_MIN_ISR = "transaction.state.log.min.isr";
  static final String TRANSACTION_VERSION = "transaction.version";
  /** Below this the broker hands a record that meets a commit back to the producer too soon. */
  static final long WANTED_BACKOFF_MAX_MS = 1_000;

  private final Admin admin;
  private final Duration timeout;

  public BrokerSettings(final Admin admin, final Duration timeout) {
    this.admin = requireNonNull(admin, "admin");
    this.timeout = requireNonNull(timeout, "timeout");
  }

  /**
   * What to change on the brokers for the apps to run as designed under {@code profile}; empty
   * when nothing. A cluster that does not let the client read its settings gets one finding
   * saying so, not an error: the topics are provisioned all the same.
   */
  public List<String> advice(final ProvisioningProfile profile) {
    final Map<Integer, Map<String, String>> byBroker = new TreeMap<>();
    final short transactionVersion;
    try {
      final Collection<Node> nodes = AdminCalls.await(admin.describeCluster().nodes(), timeout, "list the brokers");
      final Map<ConfigResource, Config> configs = AdminCalls.await(admin.describeConfigs(nodes.stream()
          .map(node -> new ConfigResource(ConfigResource.Type.BROKER, node.idString())).toList()).all(), timeout,
          "read the brokers' settings");
      configs.forEach((resource, config) -> byBroker.put(Integer.valueOf(resource.name()),
          values(config)));
      final FinalizedVersionRange version = AdminCalls.await(admin.describeFeatures().featureMetadata(), timeout,
          "read the cluster's features").finalizedFeatures().get(TRANSACTION_VERSION);
      transactionVersion = version == null ? 0 : version.maxVersionLevel();
    } catch (final ProvisioningException e) {
      return List.of(e.getCause() instanceof AuthorizationException
          ? "cannot check the brokers' transaction settings: " + e.getCause().getMessage() + " (grant the client's"
              + " principal DESCRIBE_CONFIGS on the cluster, or compare them with docs/operations.md by hand)"
          : "cannot check the brokers' transaction settings: " + e.getMessage());
    }
    return advice(byBroker, transactionVersion, profile);
  }

  /**
   * The findings for the settings of each broker by id.
   *
   * @param transactionVersion the cluster's finalized {@code transaction.version}
   */
  static List<String> advice(final Map<Integer, Map<String, String>> byBroker, final short transactionVersion,
      final ProvisioningProfile profile) {
    final List<String> findings = new ArrayList<>();
    byBroker.forEach((id, settings) -> {
      final long backoffMax = Long.parseLong(settings.getOrDefault(TXN_RETRY_BACKOFF_MAX, "100"));
      if (transactionVersion >= 2 && backoffMax < WANTED_BACKOFF_MAX_MS) {
        findings.add("broker " + id + ": " + TXN_RETRY_BACKOFF_MAX + " is " + backoffMax + " (and "
            + TXN_RETRY_BACKOFF + " " + settings.getOrDefault(TXN_RETRY_BACKOFF, "20") + ") under transaction"
            + " version " + transactionVersion + ": a record the apps send right after a commit fails back with"
            + " CONCURRENT_TRANSACTIONS and waits out the producer's retry backoff (100 ms to 1 s); set "
            + TXN_RETRY_BACKOFF_MAX + "=5000 and " + TXN_RETRY_BACKOFF + "=5 in its server.properties and restart"
            + " it (docs/operations.md)");
      }
      final int replication = Integer.parseInt(settings.getOrDefault(TXN_LOG_REPLICATION, "3"));
      final int minIsr = Integer.parseInt(settings.getOrDefault(TXN_LOG_MIN_ISR, "2"));
      if (replication < profile.replicationFactor() || minIsr < profile.minInsyncReplicas()) {
        findings.add("broker " + id + ": " + TXN_LOG_REPLICATION + " " + replication + " and " + TXN_LOG_MIN_ISR
            + " " + minIsr + " are below the " + profile.name().toLowerCase(Locale.ROOT) + " profile's "
            + profile.replicationFactor() + " and " + profile.minInsyncReplicas() + ": the loss of a broker can"
            + " lose the state of the apps' transactions; raise them (an existing __transaction_state keeps its"
            + " replicas until they are reassigned)");
      }
    });
    return findings;
  }

  private static Map<String, String> values(final Config config) {
    final Map<String, String> values = new TreeMap<>();
    for (final String name : List.of(TXN_RETRY_BACKOFF, TXN_RETRY_BACKOFF_MAX, TXN_LOG_REPLICATION, TXN_LOG_MIN_ISR)) {
      final ConfigEntry entry = config.get(name);
      if (entry != null && entry.value() != null) {
        values.put(name, entry.value());
      }
    }
    return values;
  }
}
