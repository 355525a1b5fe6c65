package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.common.Node;

/**
 * How many bytes some topics hold on the brokers' disks, all partitions and replicas: read before
 * and after a phase, the difference is what the phase wrote to them (a compacted changelog is not
 * cleaned while its segment is active, so nothing is taken away meanwhile).
 */
public final class ChangelogBytes {

  private final Admin admin;
  private final Set<String> topics;

  public ChangelogBytes(final Admin admin, final Set<String> topics) {
    this.admin = requireNonNull(admin, "admin");
    this.topics = Set.copyOf(topics);
  }

  long now() throws Exception {
    final Collection<Integer> brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream()
        .map(Node::id).toList();
    long bytes = 0;
    for (final var byBroker : admin.describeLogDirs(brokers).allDescriptions().get(30, TimeUnit.SECONDS).values()) {
      for (final LogDirDescription dir : byBroker.values()) {
        bytes += dir.replicaInfos().entrySet().stream().filter(e -> topics.contains(e.getKey().topic()))
            .mapToLong(e -> e.getValue().size()).sum();
      }
    }
    return bytes;
  }
}
