package io.zerolayer.bench.chaos;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.deploy.local.KafkaCluster;
import io.zerolayer.runtime.StreamsDurability;
import java.nio.file.Path;

/**
 * Where a chaos run happens: a cluster of three nodes or more whose catalogue is provisioned, the
 * registry's process, and a directory for the apps' stores and logs.
 *
 * @param settings client settings of the cluster and catalogue
 * @param nodes the Kafka nodes, to kill and restart
 * @param registryPid the schema registry's process, to pause
 * @param durability how the streams apps keep their own topics and stores
 * @param workDir where the apps' stores and logs go
 */
public record ChaosTarget(ClusterSettings settings, KafkaCluster nodes, long registryPid,
    StreamsDurability durability, Path workDir) {

  public ChaosTarget {
    requireNonNull(settings, "settings");
    requireNonNull(nodes, "nodes");
    requireNonNull(durability, "durability");
    workDir = workDir.toAbsolutePath();
  }
}
