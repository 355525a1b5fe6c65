package io.zerolayer.telemetry;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.telemetry.TelemetryValidator;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes an instance's telemetry samples, keyed by instance id. A sample that cannot be
 * true is refused here, at its source, with what is wrong with it.
 */
public final class TelemetryPublisher implements AutoCloseable {

  /** How far a sample's time may be from this process's clock. */
  static final Duration MAX_CLOCK_SKEW = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(TelemetryPublisher.class);

  private final KafkaProducer<String, InstanceTelemetry> producer;
  private final TelemetryValidator validator = new TelemetryValidator(MAX_CLOCK_SKEW);
  private final String topic;

  public TelemetryPublisher(final ClusterSettings cluster, final ContractSerdes serdes) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    producer = new KafkaProducer<>(props, new StringSerializer(), serdes.value(Topics.TELEMETRY).serializer());
    topic = cluster.catalogue().name(Topics.TELEMETRY);
  }

  /**
   * Sends the sample without waiting for the broker; a send that fails is logged.
   *
   * @throws IllegalArgumentException when the sample cannot be true
   */
  public void publish(final InstanceTelemetry sample) {
    send(sample);
  }

  /**
   * Sends the sample; a send that fails is logged.
   *
   * @return completes when the broker has the record, exceptionally when it could not be sent
   * @throws IllegalArgumentException when the sample cannot be true
   */
  public CompletableFuture<Void> send(final InstanceTelemetry sample) {
    final List<String> problems = validator.problems(sample, System.currentTimeMillis());
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("Telemetry of " + sample.getInstanceId() + " refused: "
          + String.join("; ", problems));
    }
    final CompletableFuture<Void> sent = new CompletableFuture<>();
    producer.send(new ProducerRecord<>(topic, sample.getInstanceId(), sample), (metadata, error) -> {
      if (error == null) {
        sent.complete(null);
      } else {
        LOG.warn("Telemetry of {} not published: {}", sample.getInstanceId(), error.toString());
        sent.completeExceptionally(error);
      }
    });
    return sent;
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
