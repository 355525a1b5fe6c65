package io.zerolayer.bench;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * How far a consumer group has got through a topic: per partition, where the topic began and
 * ended when looked at, and the group's committed offset (absent before its first commit).
 *
 * @param start first offset of each partition
 * @param end end offset of each partition (the next offset to be written)
 * @param committed the group's committed offset of each partition it has committed
 */
record GroupPosition(Map<TopicPartition, Long> start, Map<TopicPartition, Long> end,
    Map<TopicPartition, Long> committed) {

  GroupPosition {
    start = Map.copyOf(start);
    end = Map.copyOf(end);
    committed = Map.copyOf(committed);
    if (!start.keySet().equals(end.keySet())) {
      throw new IllegalArgumentException("start and end offsets name different partitions: " + start.keySet()
          + " vs " + end.keySet());
    }
  }

  /** Records between start and end, over every partition. */
  long total() {
    return end.keySet().stream().mapToLong(p -> end.get(p) - start.get(p)).sum();
  }

  /** Records the group has committed past, over every partition; never more than the total. */
  long consumed() {
    return end.keySet().stream().mapToLong(this::consumedOf).sum();
  }

  /** Records left to consume. */
  long lag() {
    return total() - consumed();
  }

  /** Whether the group has committed every partition up to its end. */
  boolean caughtUp() {
    return lag() == 0;
  }

  private long consumedOf(final TopicPartition partition) {
    final long first = start.get(partition);
    final long offset = committed.getOrDefault(partition, first);
    return Math.min(end.get(partition), Math.max(first, offset)) - first;
  }
}
