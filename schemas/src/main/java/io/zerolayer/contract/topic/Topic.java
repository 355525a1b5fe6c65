package io.zerolayer.contract.topic;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * One topic of the catalogue: its base name, the types of its keys and values, and how it is
 * provisioned. The physical name is {@link TopicCatalogue#name(Topic)}, which adds the
 * deployment's prefix.
 *
 * @param baseName name without the deployment prefix
 * @param keyType type of record keys
 * @param valueType type of record values
 * @param partitions partition count; topics joined by key share it
 * @param cleanup cleanup policy
 * @param retention retention of a deleting topic; ignored for compacted ones
 * @param <K> key type
 * @param <V> value type
 */
public record Topic<K, V>(
    String baseName,
    Class<K> keyType,
    Class<V> valueType,
    int partitions,
    Cleanup cleanup,
    Duration retention) {

  /** How the broker gets rid of old records. */
  public enum Cleanup {
    DELETE(TopicConfig.CLEANUP_POLICY_DELETE),
    COMPACT(TopicConfig.CLEANUP_POLICY_COMPACT);

    private final String policy;

    Cleanup(final String policy) {
      this.policy = policy;
    }

    /** The value of {@code cleanup.policy}. */
    public String policy() {
      return policy;
    }
  }

  public Topic {
    requireNonNull(baseName, "baseName");
    requireNonNull(keyType, "keyType");
    requireNonNull(valueType, "valueType");
    requireNonNull(cleanup, "cleanup");
    requireNonNull(retention, "retention");
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be >= 1 for topic " + baseName);
    }
  }

  /** The topic-level configs this topic is provisioned with (replication aside). */
  public Map<String, String> configs() {
    if (cleanup == Cleanup.COMPACT) {
      return Map.of(
          TopicConfig.CLEANUP_POLICY_CONFIG, cleanup.policy(),
          TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, "0",
          TopicConfig.SEGMENT_MS_CONFIG, String.valueOf(Duration.ofMinutes(10).toMillis()),
          // A reader that starts from the beginning (a router taking a partition of sequence holds)
          // reads few removed keys: their tombstones go an hour after compaction, not a day.
          TopicConfig.DELETE_RETENTION_MS_CONFIG, String.valueOf(Duration.ofHours(1).toMillis()));
    }
    return Map.of(
        TopicConfig.CLEANUP_POLICY_CONFIG, cleanup.policy(),
        TopicConfig.RETENTION_MS_CONFIG, String.valueOf(retention.toMillis()));
  }
}
