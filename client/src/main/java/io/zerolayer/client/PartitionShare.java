package io.zerolayer.client;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * Which partitions of the token and response topics a client reads: all of them, or every
 * {@code count}-th from {@code index} on, so that the replicas of one service (HTTP gateways
 * behind a load balancer) each read their own share of the streams rather than every one. A
 * sequence's records land on the partition Kafka's default partitioner gives its id, the same
 * number on both topics; a client that reads a share makes ids that land in it
 * ({@link InferenceClient#newSequenceId}).
 *
 * @param index which share, from 0
 * @param count how many shares the partitions are dealt into
 */
public record PartitionShare(int index, int count) {

  public PartitionShare {
    if (count < 1 || index < 0 || index >= count) {
      throw new IllegalArgumentException("A partition share is an index from 0 to count - 1 of a count of at least"
          + " 1; got index " + index + " of " + count);
    }
  }

  /** Every partition. */
  public static PartitionShare all() {
    return new PartitionShare(0, 1);
  }

  /** Whether the share holds partition {@code partition}. */
  public boolean holds(final int partition) {
    return partition % count == index;
  }

  /** The partition a record keyed {@code key} lands on, by Kafka's default partitioner. */
  public static int partitionOf(final String key, final int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  @Override
  public String toString() {
    return count == 1 ? "every partition" : "share " + index + " of " + count;
  }
}
