package io.zerolayer.telemetry;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.telemetry.TelemetryValidator;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.ClusterSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  private static final Logger LOG = LoggerFactory.getLogger(TelemetryPublisher.class);

  private final KafkaProducer<String, InstanceTelemetry> producer;
  private final TelemetryValidator validator = new TelemetryValidator(Duration.ofSeconds(30));
  private final String topic;

  public TelemetryPublisher(final ClusterSettings cluster, final ContractSerdes serdes) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    producer = new KafkaProducer<>(props, new StringSerializer(), serdes.value(Topics.TELEMETRY).serializer());
    topic = cluster.catalogue().name(Topics.TELEMETRY);
  }

  /**
   * @throws IllegalArgumentException when the sample cannot be true
   */
  public void publish(final InstanceTelemetry sample) {
    final List<String> problems = validator.problems(sample, System.currentTimeMillis());
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("Telemetry of " + sample.getInstanceId() + " refused: "
          + String.join("; ", problems));
    }
    producer.send(new ProducerRecord<>(topic, sample.getInstanceId(), sample), (metadata, error) -> {
      if (error != null) {
        LOG.warn("Telemetry of {} not published: {}", sample.getInstanceId(), error.toString());
      }
    });
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
