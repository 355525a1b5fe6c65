package io.zerolayer.client;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's one reading thread: the workers' token chunks and the durable response stream,
 * the partitions of its {@link PartitionShare} of both from the moment the client starts, and
 * any other partition while a sequence on it is watched ({@link #watch}); each awaited
 * sequence's records are handed to its {@link PendingResponse} or {@link FollowedStream}. If it
 * stops, every awaited sequence fails with the cause.
 */
final class ResponseReader implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ResponseReader.class);

  private final KafkaConsumer<String, byte[]> consumer;
  private final Deserializer<ResponseChunk> responses;
  private final Deserializer<TokenChunk> chunks;
  private final String responseTopic;
  private final String tokenTopic;
  private final Deliveries deliveries;
  private final PartitionShare share;
  private final PartitionWatches watches;
  private final CountDownLatch started = new CountDownLatch(1);
  private volatile int partitions;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile Throwable failure;

  /**
   * Starts reading; returns once every partition is read from its end.
   *
   * @param pending the submitted requests, by sequence id
   * @param followers the followed sequences, by sequence id
   * @param share the partitions read from the start
   * @throws IllegalStateException when the topics cannot be read
   */
  ResponseReader(final ClusterSettings cluster, final ContractSerdes serdes, final Map<String, PendingResponse> pending,
      final Map<String, FollowedStream> followers, final PartitionShare share) {
    this.share = requireNonNull(share, "share");
    this.deliveries = new Deliveries(pending, followers);
    this.watches = new PartitionWatches(share);
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    responses = serdes.value(Topics.RESPONSES).deserializer();
    chunks = serdes.value(Topics.TOKENS).deserializer();
    responseTopic = cluster.catalogue().name(Topics.RESPONSES);
    tokenTopic = cluster.catalogue().name(Topics.TOKENS);
    thread = new Thread(this::read, "inference-client-responses");
    thread.setDaemon(true);
    thread.start();
    try {
      started.await();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (failure != null) {
      close();
      throw new IllegalStateException("Cannot read responses: " + failure.getMessage(), failure);
    }
  }

  /** Why the reader stopped, or null while it reads. */
  Throwable failure() {
    return failure;
  }

  /** How many partitions the token and response topics have (each the same). */
  int partitions() {
    return partitions;
  }

  /** Whether the reader reads partition {@code partition} from the start. */
  boolean holds(final int partition) {
    return share.holds(partition);
  }

  /**
   * Reads a partition outside the share from its end on, until the returned action is run;
   * returns once the reader is there, so that whatever is written to it after the call is read.
   *
   * @throws IllegalStateException when the reader does not get there within {@code timeout}
   */
  Runnable watch(final int partition, final Duration timeout) throws InterruptedException {
    // Applied before the next poll, within a poll's timeout.
    if (!watches.start(partition, timeout)) {
      throw new IllegalStateException("could not start reading partition " + partition + " of " + responseTopic
          + " within " + timeout.toMillis() + " ms" + (failure == null ? "" : ": " + failure.getMessage()));
    }
    return () -> watches.end(partition);
  }

  private void read() {
    try {
      partitions = partitionCount();
      final List<TopicPartition> held = assigned(Set.of());
      if (held.isEmpty()) {
        throw new IllegalStateException("The client reads " + share + " of the " + partitions + " partitions of "
            + responseTopic + ", which is none: give the topics at least " + share.count() + " partitions");
      }
      consumer.assign(held);
      consumer.seekToEnd(held);
      held.forEach(consumer::position);
      started.countDown();
      while (running) {
        watches.apply(this::reassign);
        deliveries.releaseHeld();
        poll();
      }
    } catch (final WakeupException e) {
      failAll(new IllegalStateException("the client was closed before the response was complete"));
    } catch (final RuntimeException e) {
      LOG.error("Response reader stopped: {}", e.toString(), e);
      failAll(e);
    } finally {
      started.countDown();
      consumer.close();
    }
  }

  /** The share's partitions of both topics, and those of the watched partitions. */
  private List<TopicPartition> assigned(final Set<Integer> extra) {
    final List<TopicPartition> assigned = new ArrayList<>();
    for (int partition = 0; partition < partitions; partition++) {
      if (share.holds(partition) || extra.contains(partition)) {
        assigned.add(new TopicPartition(responseTopic, partition));
        assigned.add(new TopicPartition(tokenTopic, partition));
      }
    }
    return assigned;
  }

  /** Reads the share's partitions and {@code watched}, each newly read one from its end. */
  private void reassign(final Set<Integer> watched) {
    final Set<TopicPartition> old = consumer.assignment();
    final List<TopicPartition> now = assigned(watched);
    consumer.assign(now);
    final List<TopicPartition> added = now.stream().filter(p -> !old.contains(p)).toList();
    consumer.seekToEnd(added);
    added.forEach(consumer::position);
  }

  /** The partition count both topics must share, a sequence's records landing on the same number of each. */
  private int partitionCount() {
    final int responsePartitions = partitions(responseTopic);
    final int tokenPartitions = partitions(tokenTopic);
    if (responsePartitions != tokenPartitions) {
      throw new IllegalStateException(responseTopic + " has " + responsePartitions + " partitions and " + tokenTopic
          + " " + tokenPartitions + "; a sequence's records must land on the same partition number of both: give"
          + " them the same count (zerolayer topics reports the drift)");
    }
    return responsePartitions;
  }

  private int partitions(final String topic) {
    final int count = consumer.partitionsFor(topic, Duration.ofSeconds(30)).size();
    if (count == 0) {
      throw new IllegalStateException("Topic " + topic + " does not exist; provision the topics (zerolayer topics)"
          + " first");
    }
    return count;
  }

  private void poll() {
    final ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(200));
    for (final TopicPartition partition : records.partitions()) {
      for (final ConsumerRecord<String, byte[]> record : records.records(partition)) {
        if (!readable(record)) {
          // The record is fine; the registry is down. Read it and the rest of its partition again on the next poll.
          consumer.seek(partition, record.offset());
          break;
        }
      }
    }
  }

  /** Hands a record to its awaited sequence; false when it must be read again later. */
  private boolean readable(final ConsumerRecord<String, byte[]> record) {
    if (record.key() == null || record.value() == null || !deliveries.awaits(record.key())) {
      return true;
    }
    try {
      if (record.topic().equals(tokenTopic)) {
        deliveries.fromWorker(record.key(), chunks.deserialize(record.topic(), record.value()));
      } else {
        deliveries.fromDurable(responses.deserialize(record.topic(), record.value()));
      }
      return true;
    } catch (final SerializationException e) {
      if (SchemaRegistryUnavailableException.causedBy(e)) {
        return false;
      }
      LOG.warn("Skipping an unreadable record at {}-{}@{}: {}", record.topic(), record.partition(), record.offset(),
          e.getMessage());
      return true;
    }
  }

  private void failAll(final Throwable cause) {
    failure = cause;
    deliveries.failAll(cause);
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      thread.join(Duration.ofSeconds(5).toMillis());
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
