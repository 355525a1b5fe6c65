package io.zerolayer.deploy.stack;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.local.KafkaBroker;
import io.zerolayer.deploy.local.KafkaCluster;
import io.zerolayer.deploy.local.SchemaRegistryProcess;
import io.zerolayer.deploy.topics.ProvisioningProfile;
import io.zerolayer.deploy.topics.ProvisioningReport;
import io.zerolayer.deploy.topics.SchemaProvisioner;
import io.zerolayer.deploy.topics.TopicProvisioner;
import io.zerolayer.runtime.StreamsDurability;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A real Kafka cluster and a real schema registry on 127.0.0.1, each node in a child JVM that
 * dies with this one: one broker, whose topics have one replica, or three or more, whose topics
 * (the streams apps' own included) have three replicas and two in sync, as in production. All
 * start at once; closing stops all. Its owner closes it after the apps that use it (no shutdown
 * hook of its own races that order).
 */
public final class LocalCluster implements AutoCloseable {

  private final AutoCloseable kafka;
  private final String bootstrapServers;
  private final boolean replicated;
  private final SchemaRegistryProcess registry;

  private LocalCluster(final AutoCloseable kafka, final String bootstrapServers, final boolean replicated,
      final SchemaRegistryProcess registry) {
    this.kafka = kafka;
    this.bootstrapServers = bootstrapServers;
    this.replicated = replicated;
    this.registry = registry;
    registry.stopOnlyWhenAsked();
  }

  /** Starts one broker and the registry with their files under {@code workDir}. */
  public static LocalCluster start(final Path workDir) {
    return start(workDir, 1);
  }

  /** Starts {@code brokers} brokers (1, or 3 and more) and the registry with their files under {@code workDir}. */
  public static LocalCluster start(final Path workDir, final int brokers) {
    requireNonNull(workDir, "workDir");
    final CompletableFuture<SchemaRegistryProcess> registry =
        CompletableFuture.supplyAsync(() -> SchemaRegistryProcess.start(workDir.resolve("registry")));
    final AutoCloseable kafka;
    final String bootstrapServers;
    try {
      if (brokers == 1) {
        final KafkaBroker broker = KafkaBroker.start(workDir.resolve("kafka"));
        broker.stopOnlyWhenAsked();
        kafka = broker;
        bootstrapServers = broker.bootstrapServers();
      } else {
        final KafkaCluster nodes = KafkaCluster.start(workDir.resolve("kafka"), brokers);
        nodes.stopOnlyWhenAsked();
        kafka = nodes;
        bootstrapServers = nodes.bootstrapServers();
      }
    } catch (final RuntimeException e) {
      registry.thenAccept(SchemaRegistryProcess::close);
      throw e;
    }
    try {
      return new LocalCluster(kafka, bootstrapServers, brokers > 1, registry.join());
    } catch (final CompletionException e) {
      stopKafka(kafka);
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  /** How the catalogue's topics are provisioned here: the production profile on three brokers or more. */
  public ProvisioningProfile profile() {
    return replicated ? ProvisioningProfile.PRODUCTION : ProvisioningProfile.LOCAL;
  }

  /** How durable the streams apps' own topics and stores are here. */
  public StreamsDurability durability() {
    return replicated ? StreamsDurability.PRODUCTION : StreamsDurability.SINGLE_BROKER;
  }

  /** Client settings for a deployment with this topic catalogue. */
  public ClusterSettings settings(final TopicCatalogue catalogue) {
    return ClusterSettings.plaintext(bootstrapServers, registry.url(), catalogue);
  }

  /**
   * Creates the catalogue's topics, waits until every partition answers, and registers the
   * topics' value schemas.
   */
  public ProvisioningReport provision(final TopicCatalogue catalogue) {
    final ProvisioningReport report;
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      report = new TopicProvisioner(admin, catalogue, profile()).provision();
    }
    try (ContractSerdes serdes = new ContractSerdes(settings(catalogue).serdes())) {
      new SchemaProvisioner(serdes.registry(), catalogue).register();
    }
    return report;
  }

  /** Every broker's client listener, comma-separated. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  public String registryUrl() {
    return registry.url();
  }

  /**
   * The Kafka nodes, to kill and restart one.
   *
   * @throws IllegalStateException on a single broker, which cannot lose a node and keep serving
   */
  public KafkaCluster nodes() {
    if (kafka instanceof KafkaCluster nodes) {
      return nodes;
    }
    throw new IllegalStateException("A single broker has no node to spare; start three (--brokers 3)");
  }

  /** Process id of the registry's JVM, for a test that makes it unreachable. */
  public long registryPid() {
    return registry.pid();
  }

  @Override
  public void close() {
    try {
      stopKafka(kafka);
    } finally {
      registry.close();
    }
  }

  private static void stopKafka(final AutoCloseable kafka) {
    try {
      kafka.close();
    } catch (final Exception e) {
      throw new IllegalStateException("Stopping Kafka failed: " + e.getMessage(), e);
    }
  }
}
