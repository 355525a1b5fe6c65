package io.zerolayer.runtime;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/** The settings every Zerolayer Kafka Streams app shares, chosen on purpose. */
public final class StreamsSettings {

  private StreamsSettings() {
  }

  /**
   * @param cluster where the cluster is
   * @param applicationId the app's id (its consumer group and internal topic prefix)
   * @param stateDir where RocksDB keeps its stores
   * @param deadLetterTopic where records that cannot be read or processed go, with the reason
   *     in Kafka Streams' dead-letter headers; the app goes on with the next record
   * @param durability replication of the app's own topics, and standby replicas of its stores
   */
  public static Map<String, Object> of(final ClusterSettings cluster, final String applicationId,
      final Path stateDir, final String deadLetterTopic, final StreamsDurability durability) {
    requireNonNull(deadLetterTopic, "deadLetterTopic");
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    durability.applyTo(props);
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, deadLetterTopic);
    // Bad input: a record that cannot be read goes to the dead-letter topic with the reason, and
    // the app goes on; a record unreadable only because the registry is down is read again.
    props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, RetryOnRegistryOutage.class);
    // A record a processor rejects as invalid goes to the dead-letter topic; any other processing
    // failure fails the task, which retries from the last commit (see the handler).
    props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterInvalidRecords.class);
    props.put("processing.exception.handler.global.enabled", true);
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
    props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 500);
    // An instance that dies hands its tasks to the others after this, not after the 45 s default.
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
    props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 5);
    props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class);
    props.put(BoundedRocksDbMemory.TOTAL_BYTES, BoundedRocksDbMemory.DEFAULT_TOTAL_BYTES);
    return props;
  }
}
