package io.zerolayer.deploy.topics;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A topic as the cluster describes it.
 *
 * @param name physical name
 * @param partitions partition count
 * @param replicationFactor replicas of its first partition
 * @param configs every topic-level config with its effective value
 */
record ObservedTopic(String name, int partitions, int replicationFactor, Map<String, String> configs) {

  ObservedTopic {
    requireNonNull(name, "name");
    configs = Map.copyOf(configs);
  }
}
