package io.zerolayer.contract.topic;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/** Which partition a key lands on, as Kafka's default partitioner places keyed records. */
public final class Partitions {

  private Partitions() {
  }

  /** The partition of a record with this key on a topic with this many partitions. */
  public static int forKey(final String key, final int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }
}
