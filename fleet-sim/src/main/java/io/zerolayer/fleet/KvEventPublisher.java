package io.zerolayer.fleet;

import io.zerolayer.contract.avro.KvCacheEvent;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes an instance's prefix-cache events, keyed by instance id, in the order they happened
 * (one partition per instance, an idempotent producer). A send that fails is logged: a router's
 * index then over- or under-states what the instance holds until later events correct it, which
 * costs a cache miss or a longer prefill, never a wrong answer.
 */
final class KvEventPublisher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(KvEventPublisher.class);

  private final KafkaProducer<String, KvCacheEvent> producer;
  private final String topic;

  KvEventPublisher(final ClusterSettings cluster, final ContractSerdes serdes) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    producer = new KafkaProducer<>(props, new StringSerializer(), serdes.value(Topics.KV_EVENTS).serializer());
    topic = cluster.catalogue().name(Topics.KV_EVENTS);
  }

  void publish(final KvCacheEvent event) {
    producer.send(new ProducerRecord<>(topic, event.getInstanceId(), event), (metadata, error) -> {
      if (error != null) {
        LOG.warn("Prefix-cache event of {} not published: {}", event.getInstanceId(), error.toString());
      }
    });
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
