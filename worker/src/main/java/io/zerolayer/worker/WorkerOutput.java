package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's writes: token chunks keyed by sequence, completions keyed by instance, and the
 * stall reports of attempts it hands back, keyed by sequence like token-buffer's. One producer
 * writes them all, so that a rare handback goes out on the connection the token chunks keep in use.
 */
final class WorkerOutput implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(WorkerOutput.class);
  private static final Callback REPORT = (metadata, error) -> {
    if (error instanceof RetriableException) {
      LOG.warn("Send still failing after the producer's retries: {}", error.toString());
    } else if (error != null) {
      LOG.error("Send failed for good", error);
    }
  };

  private final Producer<String, SpecificRecord> producer;
  private final String tokenTopic;
  private final String completionTopic;
  private final String stallTopic;
  /** Runs what waits for a chunk's acknowledgement, off the producer's thread, which must never wait for a lock. */
  private final Executor acknowledgements;
  private volatile boolean closing;

  WorkerOutput(final ClusterSettings cluster, final ContractSerdes serdes) {
    this(new KafkaProducer<>(producerProperties(cluster), new StringSerializer(), serdes.anyRecordSerializer()),
        cluster.catalogue(), Executors.newSingleThreadExecutor(runnable -> {
          final Thread thread = new Thread(runnable, "worker-chunk-acknowledgements");
          thread.setDaemon(true);
          return thread;
        }));
  }

  /** For tests: acknowledgements are handled on the thread that completes the send. */
  WorkerOutput(final Producer<String, SpecificRecord> producer, final TopicCatalogue catalogue) {
    this(producer, catalogue, Runnable::run);
  }

  private WorkerOutput(final Producer<String, SpecificRecord> producer, final TopicCatalogue catalogue,
      final Executor acknowledgements) {
    this.acknowledgements = acknowledgements;
    this.producer = requireNonNull(producer, "producer");
    this.tokenTopic = catalogue.name(Topics.TOKENS);
    this.completionTopic = catalogue.name(Topics.COMPLETIONS);
    this.stallTopic = catalogue.name(Topics.STALLS);
  }

  private static Map<String, Object> producerProperties(final ClusterSettings cluster) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    return props;
  }

  /**
   * Reads now what a first send to each output topic would wait for, the topic's metadata and the
   * id of its value schema, so that neither holds up this worker's first chunk or first handback
   * (a worker may hand back only one attempt in its life, and nothing should slow that one).
   */
  void readAhead(final ContractSerdes serdes) {
    try {
      for (final String topic : List.of(tokenTopic, completionTopic, stallTopic)) {
        producer.partitionsFor(topic);
      }
      serdes.valueSchemaId(tokenTopic, Topics.TOKENS);
      serdes.valueSchemaId(completionTopic, Topics.COMPLETIONS);
      serdes.valueSchemaId(stallTopic, Topics.STALLS);
    } catch (final KafkaException e) {
      LOG.warn("Could not read the output topics' metadata and schema ids ahead ({}); the first sends will",
          e.toString());
    }
  }

  /**
   * Sends a chunk; {@code failed} hears of a send that failed for good, after which every later
   * chunk of the attempt would be refused as a gap.
   */
  void tokens(final TokenChunk chunk, final Consumer<Exception> failed) {
    send(new ProducerRecord<>(tokenTopic, chunk.getSequenceId(), chunk), failed, null);
  }

  /**
   * Sends a chunk as {@link #tokens(TokenChunk, Consumer)} does; {@code answered} runs once the
   * broker answered it (or the send failed), on a thread of this output's own.
   */
  void tokens(final TokenChunk chunk, final Consumer<Exception> failed, final Runnable answered) {
    send(new ProducerRecord<>(tokenTopic, chunk.getSequenceId(), chunk), failed, requireNonNull(answered, "answered"));
  }

  /** Sends an attempt's claim on its stream; the future says where in the tokens topic it went. */
  Future<RecordMetadata> claim(final TokenChunk claim) {
    return producer.send(new ProducerRecord<>(tokenTopic, claim.getSequenceId(), claim), REPORT);
  }

  /**
   * Asks the routers to cut the attempt over; {@code failed} hears of a report that could not be
   * sent, which must then go by token-buffer.
   */
  void stall(final StallDetected stall, final Consumer<Exception> failed) {
    send(new ProducerRecord<>(stallTopic, stall.getSequenceId(), stall), failed, null);
  }

  void completion(final Completion completion) {
    send(new ProducerRecord<>(completionTopic, completion.getInstanceId(), completion), error ->
        LOG.warn("Completion of {} (epoch {}) not published: {}", completion.getSequenceId(), completion.getEpoch(),
            error.toString()), null);
  }

  private void send(final ProducerRecord<String, SpecificRecord> record, final Consumer<Exception> failed,
      final Runnable answered) {
    if (closing) {
      // Acknowledgements of the last chunks still arrive while the producer flushes; what they would
      // send now is left, like the rest of the worker's streams, to token-buffer and a backup.
      LOG.debug("A record for {} not sent: the worker is closing", record.topic());
      return;
    }
    try {
      producer.send(record, (metadata, error) -> {
        REPORT.onCompletion(metadata, error);
        if (error != null) {
          failed.accept(error);
        }
        if (answered != null) {
          acknowledgements.execute(answered);
        }
      });
    } catch (final KafkaException e) {
      // Refused before it was sent (serialization, registry): the same as a failed send.
      failed.accept(e);
      if (answered != null) {
        answered.run();
      }
    }
  }

  @Override
  public void close() {
    closing = true;
    producer.close(Duration.ofSeconds(5));
    if (acknowledgements instanceof ExecutorService own) {
      own.shutdown();
    }
  }
}
