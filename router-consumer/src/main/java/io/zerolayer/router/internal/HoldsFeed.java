package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.SequenceHold;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps {@link SequenceHolds} in step with the topic of sequence holds. A partition the router
 * takes is read from its beginning, and its requests wait (their partition paused) until the
 * holds are read up to where they stood, so that no request is routed before the ids in use on
 * its partition are known; every hold and release read after that is applied as it comes. The
 * holds, requests and stalls topics share their partition count, and the routers' range
 * assignment gives each router the same partition numbers of each. Used by one router thread only.
 */
public final class HoldsFeed implements ConsumerRebalanceListener {

  private static final Logger LOG = LoggerFactory.getLogger(HoldsFeed.class);

  private final Consumer<byte[], byte[]> consumer;
  private final SequenceHolds holds;
  private final Deserializer<SequenceHold> values;
  private final String holdTopic;
  private final String requestTopic;
  private final String deadLetterTopic;
  private final RouterMeters meters;
  private final Map<TopicPartition, Long> restoring = new HashMap<>();

  public HoldsFeed(final Consumer<byte[], byte[]> consumer, final SequenceHolds holds, final TopicCatalogue catalogue,
      final ContractSerdes serdes, final RouterMeters meters) {
    this.consumer = requireNonNull(consumer, "consumer");
    this.holds = requireNonNull(holds, "holds");
    this.values = serdes.value(Topics.SEQUENCE_HOLDS).deserializer();
    this.holdTopic = catalogue.name(Topics.SEQUENCE_HOLDS);
    this.requestTopic = catalogue.name(Topics.REQUESTS);
    this.deadLetterTopic = catalogue.name(Topics.INFERENCE_DLQ);
    this.meters = requireNonNull(meters, "meters");
  }

  /** The topic this feed reads. */
  public String topic() {
    return holdTopic;
  }

  @Override
  public void onPartitionsAssigned(final Collection<TopicPartition> partitions) {
    final List<TopicPartition> taken = partitions.stream().filter(p -> p.topic().equals(holdTopic)).toList();
    if (taken.isEmpty()) {
      return;
    }
    consumer.seekToBeginning(taken);
    restoring.putAll(consumer.endOffsets(taken));
    consumer.pause(taken.stream().map(this::requests).toList());
    resumeCaughtUp();
  }

  @Override
  public void onPartitionsRevoked(final Collection<TopicPartition> partitions) {
    for (final TopicPartition partition : partitions) {
      if (partition.topic().equals(holdTopic)) {
        holds.forget(partition.partition());
        restoring.remove(partition);
      }
    }
  }

  /** Resumes the requests of each partition whose holds are read up to where they stood when it was taken. */
  public void resumeCaughtUp() {
    if (restoring.isEmpty()) {
      return;
    }
    final List<TopicPartition> caughtUp = new ArrayList<>();
    restoring.entrySet().removeIf(entry -> {
      final boolean done = consumer.position(entry.getKey()) >= entry.getValue();
      if (done) {
        caughtUp.add(requests(entry.getKey()));
      }
      return done;
    });
    if (!caughtUp.isEmpty()) {
      consumer.resume(caughtUp);
      LOG.info("Sequence holds read for {}; {} ids in use; taking requests", caughtUp, holds.size());
    }
  }

  /**
   * Applies one record of the holds topic; an unreadable one goes to the dead-letter topic (inside
   * the transaction).
   *
   * @throws SerializationException when the schema registry cannot be reached; retriable
   */
  public void apply(final ConsumerRecord<byte[], byte[]> record, final Producer<byte[], byte[]> out) {
    if (record.key() == null) {
      out.send(DeadLetters.of(deadLetterTopic, record, new SerializationException("a sequence hold without a key")));
      meters.deadLettered();
      return;
    }
    final String sequenceId = new String(record.key(), StandardCharsets.UTF_8);
    try {
      holds.apply(sequenceId, record.value() == null ? null : values.deserialize(record.topic(), record.value()));
    } catch (final SerializationException e) {
      if (SchemaRegistryUnavailableException.causedBy(e)) {
        throw e; // the record is fine: the transaction is aborted and read again
      }
      out.send(DeadLetters.of(deadLetterTopic, record, e));
      meters.deadLettered();
    }
  }

  private TopicPartition requests(final TopicPartition holdPartition) {
    return new TopicPartition(requestTopic, holdPartition.partition());
  }
}
