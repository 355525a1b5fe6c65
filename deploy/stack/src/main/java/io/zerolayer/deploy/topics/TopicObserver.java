package io.zerolayer.deploy.topics;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;

/** Reads how topics are on the cluster: partitions, replication and effective configs. */
final class TopicObserver {

  private final Admin admin;
  private final Duration timeout;

  TopicObserver(final Admin admin, final Duration timeout) {
    this.admin = admin;
    this.timeout = timeout;
  }

  Map<String, ObservedTopic> describe(final Collection<String> names) {
    if (names.isEmpty()) {
      return Map.of();
    }
    final Map<String, TopicDescription> descriptions = AdminCalls.await(
        admin.describeTopics(names).allTopicNames(), timeout, "describe topics " + names);
    final List<ConfigResource> resources = names.stream()
        .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name))
        .toList();
    final Map<ConfigResource, Config> configs = AdminCalls.await(
        admin.describeConfigs(resources).all(), timeout, "describe the configs of topics " + names);
    final Map<String, ObservedTopic> observed = new HashMap<>();
    for (final ConfigResource resource : resources) {
      final TopicDescription description = descriptions.get(resource.name());
      observed.put(resource.name(), new ObservedTopic(resource.name(), description.partitions().size(),
          description.partitions().get(0).replicas().size(), values(configs.get(resource))));
    }
    return observed;
  }

  private static Map<String, String> values(final Config config) {
    final Map<String, String> values = new HashMap<>();
    for (final ConfigEntry entry : config.entries()) {
      if (entry.value() != null) {
        values.put(entry.name(), entry.value());
      }
    }
    return values;
  }
}
