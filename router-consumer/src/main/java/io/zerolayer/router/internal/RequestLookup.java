package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Finds one request by its partition and offset on the ingress topic, which every decision
 * records: what a router needs to resume a sequence. The {@value #RECENT} requests this router
 * dispatched last are kept, so that cutting one of them over reads nothing (a read costs a fetch,
 * tens of ms on a busy broker, and a cut-over is a pause the client sees); any other, as one that
 * another router started, is read back from the topic. Used by one router thread only.
 */
public final class RequestLookup implements AutoCloseable {

  static final int RECENT = 4_096;
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private record Position(int partition, long offset) {
  }

  private final Map<Position, InferenceRequest> recent = BoundedMaps.keepingNewest(RECENT);
  private final Consumer<byte[], byte[]> consumer;
  private final Deserializer<InferenceRequest> requests;
  private final String topic;

  public RequestLookup(final ClusterSettings cluster, final ContractSerdes serdes) {
    this(new KafkaConsumer<>(consumerProps(cluster), new ByteArrayDeserializer(), new ByteArrayDeserializer()),
        serdes, cluster.catalogue().name(Topics.REQUESTS));
  }

  RequestLookup(final Consumer<byte[], byte[]> consumer, final ContractSerdes serdes, final String topic) {
    this.consumer = requireNonNull(consumer, "consumer");
    this.requests = serdes.value(Topics.REQUESTS).deserializer();
    this.topic = requireNonNull(topic, "topic");
  }

  private static Map<String, Object> consumerProps(final ClusterSettings cluster) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
    return props;
  }

  /** Keeps a request this router dispatched, read from that position. */
  public void remember(final int partition, final long offset, final InferenceRequest request) {
    recent.put(new Position(partition, offset), request);
  }

  /**
   * The request at that position, or empty when it is gone (past retention) or unreadable.
   *
   * @throws TimeoutException when the broker does not answer in time; retriable
   */
  public Optional<InferenceRequest> find(final int partition, final long offset) {
    if (partition < 0 || offset < 0) {
      return Optional.empty();
    }
    final InferenceRequest kept = recent.get(new Position(partition, offset));
    return kept != null ? Optional.of(kept) : readBack(partition, offset);
  }

  private Optional<InferenceRequest> readBack(final int partition, final long offset) {
    final TopicPartition where = new TopicPartition(topic, partition);
    consumer.assign(List.of(where));
    consumer.seek(where, offset);
    final long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
        if (record.offset() == offset) {
          return read(record);
        }
        if (record.offset() > offset) {
          return Optional.empty();
        }
      }
      if (consumer.position(where) > offset) {
        return Optional.empty();
      }
    }
    throw new TimeoutException("Request " + topic + "/" + partition + "@" + offset + " not read within " + TIMEOUT);
  }

  private Optional<InferenceRequest> read(final ConsumerRecord<byte[], byte[]> record) {
    try {
      return Optional.ofNullable(requests.deserialize(record.topic(), record.value()));
    } catch (final SerializationException e) {
      return Optional.empty();
    }
  }

  @Override
  public void close() {
    consumer.close();
  }
}
