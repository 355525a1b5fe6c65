package io.zerolayer.deploy.stack;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.local.KafkaBroker;
import io.zerolayer.deploy.local.SchemaRegistryProcess;
import io.zerolayer.deploy.topics.ProvisioningProfile;
import io.zerolayer.deploy.topics.ProvisioningReport;
import io.zerolayer.deploy.topics.SchemaProvisioner;
import io.zerolayer.deploy.topics.TopicProvisioner;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A real single-node Kafka cluster and a real schema registry on 127.0.0.1, each in a child
 * JVM that dies with this one. Both start at once; closing stops both. Its owner closes it
 * after the apps that use it (no shutdown hook of its own races that order).
 */
public final class LocalCluster implements AutoCloseable {

  private final KafkaBroker broker;
  private final SchemaRegistryProcess registry;

  private LocalCluster(final KafkaBroker broker, final SchemaRegistryProcess registry) {
    this.broker = broker;
    this.registry = registry;
    broker.stopOnlyWhenAsked();
    registry.stopOnlyWhenAsked();
  }

  /** Starts the broker and the registry with their files under {@code workDir}. */
  public static LocalCluster start(final Path workDir) {
    requireNonNull(workDir, "workDir");
    final CompletableFuture<SchemaRegistryProcess> registry =
        CompletableFuture.supplyAsync(() -> SchemaRegistryProcess.start(workDir.resolve("registry")));
    final KafkaBroker broker;
    try {
      broker = KafkaBroker.start(workDir.resolve("kafka"));
    } catch (final RuntimeException e) {
      registry.thenAccept(SchemaRegistryProcess::close);
      throw e;
    }
    try {
      return new LocalCluster(broker, registry.join());
    } catch (final CompletionException e) {
      broker.close();
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }

  /** Client settings for a deployment with this topic catalogue. */
  public ClusterSettings settings(final TopicCatalogue catalogue) {
    return ClusterSettings.plaintext(broker.bootstrapServers(), registry.url(), catalogue);
  }

  /**
   * Creates the catalogue's topics, waits until every partition answers, and registers the
   * topics' value schemas.
   */
  public ProvisioningReport provision(final TopicCatalogue catalogue) {
    final ProvisioningReport report;
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      report = new TopicProvisioner(admin, catalogue, ProvisioningProfile.LOCAL).provision();
    }
    try (ContractSerdes serdes = new ContractSerdes(settings(catalogue).serdes())) {
      new SchemaProvisioner(serdes.registry(), catalogue).register();
    }
    return report;
  }

  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  public String registryUrl() {
    return registry.url();
  }

  @Override
  public void close() {
    try {
      broker.close();
    } finally {
      registry.close();
    }
  }
}
