package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * Looks up, with admin requests, how far a consumer group has got through one topic: the
 * topic's committed-read end offsets against the group's committed offsets.
 */
final class OffsetProbe {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final Admin admin;
  private final List<TopicPartition> partitions;
  private final Map<TopicPartition, Long> start;

  OffsetProbe(final Admin admin, final String topic)
      throws InterruptedException, ExecutionException, TimeoutException {
    this.admin = requireNonNull(admin, "admin");
    partitions = await(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic).partitions().stream()
        .map(p -> new TopicPartition(topic, p.partition())).toList();
    start = offsets(OffsetSpec.earliest());
  }

  /** Records written to the topic since this probe was made (or since its oldest retained record). */
  long recordsSinceStart() throws InterruptedException, ExecutionException, TimeoutException {
    final Map<TopicPartition, Long> end = offsets(OffsetSpec.latest());
    return end.entrySet().stream().mapToLong(e -> e.getValue() - start.get(e.getKey())).sum();
  }

  /** Where {@code groupId} stands now. */
  GroupPosition position(final String groupId)
      throws InterruptedException, ExecutionException, TimeoutException {
    final Map<TopicPartition, Long> end = offsets(OffsetSpec.latest());
    final Map<TopicPartition, Long> committed = new HashMap<>();
    final Map<TopicPartition, OffsetAndMetadata> offsets =
        await(admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata());
    offsets.forEach((partition, offset) -> {
      if (offset != null && partitions.contains(partition)) {
        committed.put(partition, offset.offset());
      }
    });
    return new GroupPosition(start, end, committed);
  }

  private Map<TopicPartition, Long> offsets(final OffsetSpec spec)
      throws InterruptedException, ExecutionException, TimeoutException {
    final Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    partitions.forEach(p -> request.put(p, spec));
    final Map<TopicPartition, ListOffsetsResultInfo> result =
        await(admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all());
    final Map<TopicPartition, Long> offsets = new HashMap<>();
    result.forEach((partition, info) -> offsets.put(partition, info.offset()));
    return offsets;
  }

  private static <T> T await(final KafkaFuture<T> future)
      throws InterruptedException, ExecutionException, TimeoutException {
    return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }
}
