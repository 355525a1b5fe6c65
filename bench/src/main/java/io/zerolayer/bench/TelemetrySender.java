package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes telemetry samples as an instance would (idempotent, keyed by instance id, the record
 * timestamp is the sample time) and counts what the broker acknowledged.
 */
public final class TelemetrySender implements AutoCloseable {

  private final KafkaProducer<String, InstanceTelemetry> producer;
  private final String topic;
  private final AtomicLong acked = new AtomicLong();
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  /**
   * @param lingerMs how long a batch waits to fill: long for a backlog, short for live samples
   */
  public TelemetrySender(final ClusterSettings cluster, final ContractSerdes serdes, final int lingerMs) {
    requireNonNull(cluster, "cluster");
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    producer = new KafkaProducer<>(props, new StringSerializer(), serdes.value(Topics.TELEMETRY).serializer());
    topic = cluster.catalogue().name(Topics.TELEMETRY);
  }

  /** Sends a sample; fails fast if an earlier send failed. */
  public void send(final InstanceTelemetry sample) {
    throwIfFailed();
    producer.send(new ProducerRecord<>(topic, null, sample.getSampleTimeMs(), sample.getInstanceId(), sample),
        (metadata, error) -> {
          if (error == null) {
            acked.incrementAndGet();
          } else {
            failure.compareAndSet(null, error);
          }
        });
  }

  /** Samples the broker acknowledged so far. */
  long acked() {
    return acked.get();
  }

  /** Waits until every sample sent so far is acknowledged, and fails if one was not. */
  void flush() {
    producer.flush();
    throwIfFailed();
  }

  private void throwIfFailed() {
    final Exception error = failure.get();
    if (error != null) {
      throw new IllegalStateException("Publishing telemetry to " + topic + " failed: " + error.getMessage(), error);
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
