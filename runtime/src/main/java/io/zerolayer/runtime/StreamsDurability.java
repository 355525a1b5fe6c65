package io.zerolayer.runtime;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How durable a streams app's own topics (changelogs, repartition topics) and state are: their
 * replication factor and {@code min.insync.replicas}, as the production profile gives the
 * catalogue's topics, and how many standby replicas of each store other instances keep warm for
 * a fast fail-over. Each app defines the keys under its own prefix ({@link #define}).
 *
 * @param replicationFactor replicas of each internal topic
 * @param minInSyncReplicas replicas that must have a write before it counts
 * @param standbyReplicas warm copies of each store on other instances of the app
 */
public record StreamsDurability(int replicationFactor, int minInSyncReplicas, int standbyReplicas) {

  /** A single broker: one replica of everything, no standby. */
  public static final StreamsDurability SINGLE_BROKER = new StreamsDurability(1, 1, 0);
  /** Three brokers or more, the defaults: three replicas, two in sync, one standby. */
  public static final StreamsDurability PRODUCTION = new StreamsDurability(3, 2, 1);

  public static final String REPLICATION_FACTOR = "streams.replication.factor";
  public static final String MIN_INSYNC_REPLICAS = "streams.min.insync.replicas";
  public static final String STANDBY_REPLICAS = "streams.standby.replicas";

  public StreamsDurability {
    if (replicationFactor < 1 || minInSyncReplicas < 1 || minInSyncReplicas > replicationFactor
        || standbyReplicas < 0) {
      throw new IllegalArgumentException("Need 1 <= min.insync.replicas <= replication factor and 0 or more standby"
          + " replicas, got replication factor " + replicationFactor + ", min.insync.replicas " + minInSyncReplicas
          + ", " + standbyReplicas + " standby replicas");
    }
  }

  /** Adds the three keys under {@code prefix} (such as {@code "heatmap."}), with the production defaults. */
  public static ConfigDef define(final ConfigDef definition, final String prefix) {
    return definition
        .define(prefix + REPLICATION_FACTOR, Type.INT, PRODUCTION.replicationFactor(), Range.atLeast(1), Importance.HIGH,
            "Replication factor of the app's changelog and repartition topics; 1 for a single broker.")
        .define(prefix + MIN_INSYNC_REPLICAS, Type.INT, PRODUCTION.minInSyncReplicas(), Range.atLeast(1), Importance.HIGH,
            "min.insync.replicas of those topics, at most the replication factor; 1 for a single broker.")
        .define(prefix + STANDBY_REPLICAS, Type.INT, PRODUCTION.standbyReplicas(), Range.atLeast(0), Importance.MEDIUM,
            "Standby replicas of each state store, kept warm by other instances of the app for a fast fail-over.");
  }

  /** The durability a config gives under {@code prefix}. */
  public static StreamsDurability of(final AbstractConfig config, final String prefix) {
    return new StreamsDurability(config.getInt(prefix + REPLICATION_FACTOR),
        config.getInt(prefix + MIN_INSYNC_REPLICAS), config.getInt(prefix + STANDBY_REPLICAS));
  }

  /** These values as config entries under {@code prefix}, for an app's settings. */
  public Map<String, Object> settings(final String prefix) {
    return Map.of(prefix + REPLICATION_FACTOR, replicationFactor, prefix + MIN_INSYNC_REPLICAS, minInSyncReplicas,
        prefix + STANDBY_REPLICAS, standbyReplicas);
  }

  /** Applies them to Kafka Streams properties. */
  void applyTo(final Map<String, Object> props) {
    props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, replicationFactor);
    props.put(StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG), minInSyncReplicas);
    props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, standbyReplicas);
  }
}
