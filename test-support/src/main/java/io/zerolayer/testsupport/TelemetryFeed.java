package io.zerolayer.testsupport;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes telemetry of a few instances every 50 ms, with a fragmentation the test sets. */
public final class TelemetryFeed implements AutoCloseable {

  private final KafkaProducer<String, InstanceTelemetry> producer;
  private final String topic;
  private final Map<String, Double> fragmentation = new ConcurrentHashMap<>();
  private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();

  public TelemetryFeed(final ClusterSettings cluster, final TopicCatalogue catalogue, final ContractSerdes serdes,
      final List<String> instances) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    producer = new KafkaProducer<>(props, new StringSerializer(), serdes.value(Topics.TELEMETRY).serializer());
    topic = catalogue.name(Topics.TELEMETRY);
    instances.forEach(id -> fragmentation.put(id, 0.2));
    clock.scheduleAtFixedRate(this::publish, 0, 50, TimeUnit.MILLISECONDS);
  }

  /** From the next sample on, the instance reports this fragmentation. */
  public void fragmentation(final String instance, final double value) {
    fragmentation.put(instance, value);
  }

  private void publish() {
    final long now = System.currentTimeMillis();
    fragmentation.forEach((id, value) -> producer.send(new ProducerRecord<>(topic, id, InstanceTelemetry.newBuilder()
        .setInstanceId(id).setZone("zone-a").setModel("sim-8b").setSampleTimeMs(now)
        .setGpuUtilization(0.5).setVramUsedBytes(40L << 30).setVramFragmentation(value)
        .setKvCacheHitRate(0.4).setKvWarmupLevel(1.0).setNcclRingLatencyMs(0.3).setTcpRetransmitRate(0.001)
        .setQueueLength(0).setRunningRequests(2).setDecodeTokensPerS(900).setTokenIntervalStddevMs(4.0)
        .setAllocationErrors(0).build())));
  }

  @Override
  public void close() throws InterruptedException {
    clock.shutdownNow();
    clock.awaitTermination(5, TimeUnit.SECONDS);
    producer.close();
  }
}
