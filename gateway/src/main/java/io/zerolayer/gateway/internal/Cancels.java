package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the fleet that a sequence's client went away: a {@code CANCEL} that ends the sequence,
 * for any epoch, to the instance generating it and to every other instance the heatmap knows. The
 * engine stops, and a backup that a cut-over sent the sequence to meanwhile ends it at once
 * instead of generating it for nobody.
 */
public final class Cancels implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Cancels.class);

  private final KafkaProducer<String, InstanceCommand> producer;
  private final String topic;
  private final Supplier<Set<String>> fleet;

  /**
   * @param fleet the instances the heatmap knows now
   */
  public Cancels(final ClusterSettings cluster, final ContractSerdes serdes, final Supplier<Set<String>> fleet) {
    this.fleet = requireNonNull(fleet, "fleet");
    topic = cluster.catalogue().name(Topics.COMMANDS);
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    producer = new KafkaProducer<>(props, new StringSerializer(), serdes.value(Topics.COMMANDS).serializer());
  }

  /**
   * Ends the sequence on every instance, its owner first.
   *
   * @param owner the instance that generated its last tokens, or null when none is known yet
   */
  public void clientGone(final String sequenceId, final String owner) {
    final Set<String> targets = new LinkedHashSet<>();
    if (owner != null) {
      targets.add(owner);
    }
    targets.addAll(fleet.get());
    final long now = System.currentTimeMillis();
    for (final String instanceId : targets) {
      final InstanceCommand cancel = InstanceCommand.newBuilder()
          .setInstanceId(instanceId)
          .setType(CommandType.CANCEL)
          .setSequenceId(sequenceId)
          .setEpoch(null)
          .setEndsSequence(true)
          .setReason("the HTTP client disconnected")
          .setIssuedAtMs(now)
          .build();
      producer.send(new ProducerRecord<>(topic, instanceId, cancel), (metadata, error) -> {
        if (error != null) {
          LOG.warn("The CANCEL of {} on {} could not be sent; the engine generates it to the end: {}", sequenceId,
              instanceId, error.toString());
        }
      });
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
