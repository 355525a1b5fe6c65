package io.zerolayer.runtime;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Whether an instance of a streams app is a static member of the app's consumer group: given an
 * id that survives its restarts (a StatefulSet pod's name), an instance restarted after a crash
 * or a redeploy takes back its own tasks at once, without a rebalance and without waiting out
 * the dead member's session. Kafka Streams suffixes the id with each stream thread's index. Two
 * running instances given one id fence each other. Each app defines the key under its own prefix.
 */
public final class StreamsMembership {

  public static final String INSTANCE_ID = "streams.instance.id";

  private StreamsMembership() {
  }

  /** Adds the key under {@code prefix} (such as {@code "heatmap."}); empty, the default, for dynamic membership. */
  public static ConfigDef define(final ConfigDef definition, final String prefix) {
    return definition.define(prefix + INSTANCE_ID, Type.STRING, "", Importance.MEDIUM,
        "This instance's id as a static member of the app's consumer group, unique among the app's instances and"
            + " kept across restarts (a StatefulSet pod's name): a restarted instance takes back its own tasks"
            + " without a rebalance. Empty: a dynamic member, whose restart waits for its old session to expire.");
  }

  /** The instance id a config gives under {@code prefix}, if any. */
  public static Optional<String> instanceId(final AbstractConfig config, final String prefix) {
    final String id = config.getString(prefix + INSTANCE_ID).strip();
    return id.isEmpty() ? Optional.empty() : Optional.of(id);
  }

  /** Makes the app's main consumers static members under {@code instanceId}, when there is one. */
  public static void applyTo(final Map<String, Object> props, final Optional<String> instanceId) {
    instanceId.ifPresent(id -> props.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
        id));
  }
}
