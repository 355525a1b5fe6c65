package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.ClusterSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads one request back from the ingress topic by its partition and offset, which every
 * decision records: what a router needs to resume a sequence that another router started.
 * Used by one router thread only.
 */
public final class RequestLookup implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Deserializer<InferenceRequest> requests;
  private final String topic;

  public RequestLookup(final ClusterSettings cluster, final ContractSerdes serdes) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
    consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    requests = serdes.value(Topics.REQUESTS).deserializer();
    topic = cluster.catalogue().name(Topics.REQUESTS);
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
