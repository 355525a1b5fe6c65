package io.zerolayer.testsupport;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.local.SchemaRegistryProcess;
import io.zerolayer.deploy.local.WorkDirs;
import io.zerolayer.deploy.stack.LocalCluster;
import io.zerolayer.deploy.topics.ProvisioningProfile;
import io.zerolayer.deploy.topics.SchemaProvisioner;
import io.zerolayer.deploy.topics.TopicProvisioner;
import io.zerolayer.runtime.StreamsDurability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.testcontainers.kafka.KafkaContainer;

/**
 * One real broker and one real registry for the whole test JVM, started on first use and
 * stopped when the run ends. Each test asks for its own topic catalogue (a unique prefix), so
 * tests never share topics, application ids or consumer groups. The broker is the project's
 * own KRaft launcher unless {@code -Dzerolayer.it.broker=testcontainers} asks for the
 * {@code apache/kafka} image (needs Docker).
 */
public final class TestCluster implements BeforeAllCallback, ParameterResolver {

  private static final Namespace NAMESPACE = Namespace.create(TestCluster.class);

  /** The shared cluster, as a test sees it. */
  public static final class Handle implements AutoCloseable {
    private final AtomicInteger catalogues = new AtomicInteger();
    private final AutoCloseable resources;
    private final String bootstrapServers;
    private final String registryUrl;
    private final long registryPid;
    private final Path workDir;
    private final String namePrefix;
    private final ProvisioningProfile profile;
    private final StreamsDurability durability;

    /** A single broker's handle: catalogues {@code it<n>-}, one replica of everything. */
    Handle(final AutoCloseable resources, final String bootstrapServers, final String registryUrl,
        final long registryPid, final Path workDir) {
      this(resources, bootstrapServers, registryUrl, registryPid, workDir, "it", ProvisioningProfile.LOCAL,
          StreamsDurability.SINGLE_BROKER);
    }

    /**
     * @param namePrefix what each catalogue's prefix starts with, before its number
     * @param profile replicas of the catalogue's topics
     * @param durability replicas of the streams apps' own topics, and standbys
     */
    Handle(final AutoCloseable resources, final String bootstrapServers, final String registryUrl,
        final long registryPid, final Path workDir, final String namePrefix, final ProvisioningProfile profile,
        final StreamsDurability durability) {
      this.resources = resources;
      this.bootstrapServers = bootstrapServers;
      this.registryUrl = registryUrl;
      this.registryPid = registryPid;
      this.workDir = workDir;
      this.namePrefix = namePrefix;
      this.profile = profile;
      this.durability = durability;
    }

    /** A fresh catalogue with its topics created and ready, and its value schemas registered. */
    public TopicCatalogue newCatalogue() {
      final TopicCatalogue catalogue = new TopicCatalogue(namePrefix + catalogues.incrementAndGet() + "-");
      try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
        new TopicProvisioner(admin, catalogue, profile).provision();
      }
      try (ContractSerdes serdes = new ContractSerdes(settings(catalogue).serdes())) {
        new SchemaProvisioner(serdes.registry(), catalogue).register();
      }
      return catalogue;
    }

    public ClusterSettings settings(final TopicCatalogue catalogue) {
      return ClusterSettings.plaintext(bootstrapServers, registryUrl, catalogue);
    }

    public String bootstrapServers() {
      return bootstrapServers;
    }

    /** Replicas of the streams apps' own topics on this cluster, and their standbys. */
    public StreamsDurability durability() {
      return durability;
    }

    public String registryUrl() {
      return registryUrl;
    }

    /** Process id of the registry's JVM, to pause it ({@code kill -STOP}) and let it go on. */
    public long registryPid() {
      return registryPid;
    }

    /**
     * An empty directory of its own for one test's state stores; the broker starts empty on
     * every run, so state left by an earlier run would not match it.
     */
    public Path stateDir(final TopicCatalogue catalogue) throws IOException {
      final Path dir = workDir.resolve("state").resolve(catalogue.prefix());
      WorkDirs.deleteRecursively(dir);
      return Files.createDirectories(dir);
    }

    @Override
    public void close() throws Exception {
      resources.close();
    }
  }

  @Override
  public void beforeAll(final ExtensionContext context) {
    handle(context);
  }

  @Override
  public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context) {
    return parameter.getParameter().getType() == Handle.class;
  }

  @Override
  public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context) {
    return handle(context);
  }

  private static Handle handle(final ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Handle.class, k -> start(), Handle.class);
  }

  private static Handle start() {
    try {
      final Path workDir = Files.createDirectories(Path.of("target", "it-cluster")).toAbsolutePath();
      if ("testcontainers".equals(System.getProperty("zerolayer.it.broker"))) {
        final KafkaContainer kafka = new KafkaContainer("apache/kafka:4.1.0");
        kafka.start();
        final SchemaRegistryProcess registry = SchemaRegistryProcess.start(workDir.resolve("registry"));
        return new Handle(() -> {
          registry.close();
          kafka.stop();
        }, kafka.getBootstrapServers(), registry.url(), registry.pid(), workDir);
      }
      final LocalCluster cluster = LocalCluster.start(workDir);
      return new Handle(cluster, cluster.bootstrapServers(), cluster.registryUrl(), cluster.registryPid(), workDir);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
