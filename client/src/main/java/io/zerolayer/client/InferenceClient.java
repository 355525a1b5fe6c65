package io.zerolayer.client;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An application's side of Zerolayer: publishes requests to the ingress topic and hands back
 * each one's ordered response stream. It reads the response topic (committed records only)
 * from the moment it starts, so submit after construction. If its reader stops, every pending
 * and later response fails with the cause instead of waiting forever.
 */
public final class InferenceClient implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(InferenceClient.class);

  private final KafkaProducer<String, InferenceRequest> producer;
  private final KafkaConsumer<String, ResponseChunk> consumer;
  private final String requestTopic;
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();
  private final Thread reader;
  private final CountDownLatch positioned = new CountDownLatch(1);
  private volatile boolean running = true;
  private final Consumer<ResponseChunk> chunkObserver;
  private volatile Throwable failure;

  public InferenceClient(final ClusterSettings cluster, final ContractSerdes serdes) {
    this(cluster, serdes, chunk -> { });
  }

  /**
   * @param chunkObserver called on the reader thread with every chunk of a pending request as it
   *     is read, before it joins its response (a load generator times chunks with it); must not block
   */
  public InferenceClient(final ClusterSettings cluster, final ContractSerdes serdes,
      final Consumer<ResponseChunk> chunkObserver) {
    requireNonNull(cluster, "cluster");
    this.chunkObserver = requireNonNull(chunkObserver, "chunkObserver");
    requestTopic = cluster.catalogue().name(Topics.REQUESTS);
    final Map<String, Object> producerProps = new HashMap<>(cluster.clientProperties());
    producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 1);
    producer = new KafkaProducer<>(producerProps, new StringSerializer(),
        serdes.value(Topics.REQUESTS).serializer());
    final Map<String, Object> consumerProps = new HashMap<>(cluster.clientProperties());
    consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(),
        serdes.value(Topics.RESPONSES).deserializer());
    final String responseTopic = cluster.catalogue().name(Topics.RESPONSES);
    reader = new Thread(() -> read(responseTopic), "inference-client-responses");
    reader.setDaemon(true);
    reader.start();
    try {
      positioned.await();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (failure != null) {
      close();
      throw new IllegalStateException("Cannot read responses: " + failure.getMessage(), failure);
    }
  }

  /** Publishes a request; the future completes with its whole response stream. */
  public CompletableFuture<Response> submit(final InferenceRequest request) {
    if (request.getReplyTopic() != null) {
      return CompletableFuture.failedFuture(new IllegalArgumentException("This client reads the response topic of"
          + " the catalogue; to use reply topic " + request.getReplyTopic() + ", read it with a consumer of your own"));
    }
    if (failure != null) {
      return CompletableFuture.failedFuture(failure);
    }
    final Pending entry = new Pending(request.getSequenceId());
    pending.put(request.getSequenceId(), entry);
    try {
      producer.send(new ProducerRecord<>(requestTopic, request.getSequenceId(), request), (metadata, error) -> {
        if (error != null) {
          pending.remove(request.getSequenceId());
          entry.future.completeExceptionally(error);
        }
      });
    } catch (final KafkaException e) {
      pending.remove(request.getSequenceId());
      entry.future.completeExceptionally(e);
    }
    return entry.future;
  }

  private void read(final String responseTopic) {
    try {
      final List<TopicPartition> partitions = consumer.partitionsFor(responseTopic, Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      if (partitions.isEmpty()) {
        throw new IllegalStateException("Response topic " + responseTopic + " does not exist; provision the topics"
            + " (zerolayer topics) first");
      }
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      partitions.forEach(consumer::position);
      positioned.countDown();
      while (running) {
        poll();
      }
    } catch (final WakeupException e) {
      failAll(new IllegalStateException("the client was closed before the response was complete"));
    } catch (final RuntimeException e) {
      LOG.error("Response reader stopped: {}", e.toString(), e);
      failAll(e);
    } finally {
      positioned.countDown();
      consumer.close();
    }
  }

  private void poll() {
    try {
      for (final ConsumerRecord<String, ResponseChunk> record : consumer.poll(Duration.ofMillis(200))) {
        deliver(record.value());
      }
    } catch (final RecordDeserializationException e) {
      if (SchemaRegistryUnavailableException.causedBy(e)) {
        // The record is fine; the registry is down. Read it again on the next poll.
        consumer.seek(e.topicPartition(), e.offset());
        return;
      }
      LOG.warn("Skipping an unreadable response record at {}@{}: {}", e.topicPartition(), e.offset(), e.getMessage());
      consumer.seek(e.topicPartition(), e.offset() + 1);
    }
  }

  private void failAll(final Throwable cause) {
    failure = cause;
    pending.values().forEach(entry -> entry.future.completeExceptionally(cause));
    pending.clear();
  }

  private void deliver(final ResponseChunk chunk) {
    final Pending entry = pending.get(chunk.getSequenceId());
    if (entry == null) {
      return;
    }
    chunkObserver.accept(chunk);
    try {
      final Response response = entry.assembler.add(chunk);
      if (response != null) {
        pending.remove(chunk.getSequenceId());
        entry.future.complete(response);
      }
    } catch (final IllegalStateException e) {
      pending.remove(chunk.getSequenceId());
      entry.future.completeExceptionally(e);
    }
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      reader.join(Duration.ofSeconds(5).toMillis());
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(5));
  }

  private static final class Pending {
    private final CompletableFuture<Response> future = new CompletableFuture<>();
    private final ResponseAssembler assembler;

    private Pending(final String sequenceId) {
      this.assembler = new ResponseAssembler(sequenceId);
    }
  }
}
