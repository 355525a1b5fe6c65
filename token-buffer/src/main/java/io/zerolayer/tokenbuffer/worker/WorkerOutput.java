package io.zerolayer.tokenbuffer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.ClusterSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A worker's writes: token chunks keyed by sequence, completions keyed by instance. */
final class WorkerOutput implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WorkerOutput.class);

  private final Producer<String, TokenChunk> tokens;
  private final Producer<String, Completion> completions;
  private final String tokenTopic;
  private final String completionTopic;
  private final Callback report = (metadata, error) -> {
    if (error instanceof RetriableException) {
      LOG.warn("Send still failing after the producer's retries: {}", error.toString());
    } else if (error != null) {
      LOG.error("Send failed for good", error);
    }
  };

  WorkerOutput(final ClusterSettings cluster, final ContractSerdes serdes) {
    this(new KafkaProducer<>(producerProperties(cluster), new StringSerializer(),
            serdes.value(Topics.TOKENS).serializer()),
        new KafkaProducer<>(producerProperties(cluster), new StringSerializer(),
            serdes.value(Topics.COMPLETIONS).serializer()),
        cluster.catalogue().name(Topics.TOKENS), cluster.catalogue().name(Topics.COMPLETIONS));
  }

  WorkerOutput(final Producer<String, TokenChunk> tokens, final Producer<String, Completion> completions,
      final String tokenTopic, final String completionTopic) {
    this.tokens = requireNonNull(tokens, "tokens");
    this.completions = requireNonNull(completions, "completions");
    this.tokenTopic = requireNonNull(tokenTopic, "tokenTopic");
    this.completionTopic = requireNonNull(completionTopic, "completionTopic");
  }

  private static Map<String, Object> producerProperties(final ClusterSettings cluster) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    return props;
  }

  /**
   * Sends a chunk; {@code failed} hears of a send that failed for good, after which every later
   * chunk of the attempt would be refused as a gap.
   */
  void tokens(final TokenChunk chunk, final Consumer<Exception> failed) {
    try {
      tokens.send(new ProducerRecord<>(tokenTopic, chunk.getSequenceId(), chunk), (metadata, error) -> {
        report.onCompletion(metadata, error);
        if (error != null) {
          failed.accept(error);
        }
      });
    } catch (final KafkaException e) {
      // Refused before it was sent (serialization, registry): the same as a failed send.
      failed.accept(e);
    }
  }

  void completion(final Completion completion) {
    try {
      completions.send(new ProducerRecord<>(completionTopic, completion.getInstanceId(), completion), report);
    } catch (final KafkaException e) {
      LOG.warn("Completion of {} (epoch {}) not published: {}", completion.getSequenceId(), completion.getEpoch(),
          e.toString());
    }
  }

  @Override
  public void close() {
    tokens.close(Duration.ofSeconds(5));
    completions.close(Duration.ofSeconds(5));
  }
}
