package io.zerolayer.testsupport;

import io.zerolayer.deploy.local.KafkaCluster;
import io.zerolayer.deploy.topics.ProvisioningProfile;
import io.zerolayer.runtime.StreamsDurability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Three Kafka nodes of one test's own, for the tests that kill and restart brokers, beside the
 * shared registry. Catalogues on it are provisioned with the production profile (three replicas,
 * two in sync), and the streams apps a rig starts on it keep their own topics so too, with a
 * standby each.
 */
public final class ReplicatedCluster implements AutoCloseable {

  private static final int NODES = 3;

  private final KafkaCluster nodes;
  private final TestCluster.Handle handle;

  private ReplicatedCluster(final KafkaCluster nodes, final TestCluster.Handle handle) {
    this.nodes = nodes;
    this.handle = handle;
  }

  /** Starts three nodes under {@code target/it-cluster-3}, using the registry of {@code shared}. */
  public static ReplicatedCluster start(final TestCluster.Handle shared) throws IOException {
    final Path workDir = Files.createDirectories(Path.of("target", "it-cluster-3")).toAbsolutePath();
    final KafkaCluster nodes = KafkaCluster.start(workDir.resolve("kafka"), NODES);
    nodes.stopOnlyWhenAsked();
    return new ReplicatedCluster(nodes, new TestCluster.Handle(nodes, nodes.bootstrapServers(),
        shared.registryUrl(), shared.registryPid(), workDir, "rf3-it", ProvisioningProfile.PRODUCTION, StreamsDurability.PRODUCTION));
  }

  /** The cluster as a rig sees it. */
  public TestCluster.Handle handle() {
    return handle;
  }

  /** The nodes, to kill and restart. */
  public KafkaCluster nodes() {
    return nodes;
  }

  @Override
  public void close() {
    nodes.close();
  }
}
