package io.zerolayer.testsupport;

import static org.awaitility.Awaitility.await;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.router.policy.Heatmap;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;

/** Conditions the integration tests wait for. */
public final class Awaits {

  private Awaits() {
  }

  /** Waits until the router's heatmap has a row with positive weight for each instance. */
  public static void routerSees(final Pipeline pipeline, final Collection<String> instanceIds) {
    routerSees(pipeline::routerHeatmap, instanceIds);
  }

  /** Waits until a router's heatmap, as {@code heatmap} gives it, has a row with positive weight for each instance. */
  public static void routerSees(final Supplier<Heatmap> heatmap, final Collection<String> instanceIds) {
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() ->
        instanceIds.stream().allMatch(id -> {
          final InstanceScore row = heatmap.get().row(id);
          return row != null && row.getWeight() > 0;
        }));
  }

  /** Waits until a consumer group has this many members, each with partitions assigned. */
  public static void groupHasMembersWithPartitions(final ClusterSettings settings, final String group, final int members) {
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers()))) {
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
        final ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get()
            .get(group);
        return description.members().size() == members
            && description.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty());
      });
    }
  }
}
