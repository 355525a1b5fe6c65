package io.zerolayer.deploy.topics;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * A topic as it should be on the cluster: the catalogue's entry with the deployment's name and the
 * profile's durability.
 *
 * @param name physical name
 * @param partitions partition count
 * @param replicationFactor replication factor
 * @param configs topic-level configs, {@code min.insync.replicas} included
 */
record TopicSpec(String name, int partitions, short replicationFactor, Map<String, String> configs) {

  TopicSpec {
    requireNonNull(name, "name");
    configs = Map.copyOf(configs);
  }

  static TopicSpec of(final Topic<?, ?> topic, final TopicCatalogue catalogue, final ProvisioningProfile profile) {
    final Map<String, String> configs = new HashMap<>(topic.configs());
    configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, String.valueOf(profile.minInsyncReplicas()));
    return new TopicSpec(catalogue.name(topic), topic.partitions(), profile.replicationFactor(), configs);
  }

  NewTopic toNewTopic() {
    return new NewTopic(name, Optional.of(partitions), Optional.of(replicationFactor)).configs(configs);
  }
}
