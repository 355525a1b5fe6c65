package io.zerolayer.client;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.serde.SchemaRegistryUnavailableException;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An application's side of Zerolayer: publishes requests to the ingress topic and hands back
 * each one's ordered response stream. It reads, from the moment it starts (so submit after
 * construction), both the workers' token chunks, for each token the moment it is written, and
 * the durable response topic (committed records only), which ends each stream with its outcome
 * and usage ({@link StreamMerger}). A response whose tokens as passed on differ from the durable
 * stream's fails rather than completes. If its reader stops, every pending and later response
 * fails with the cause instead of waiting forever.
 */
public final class InferenceClient implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(InferenceClient.class);

  private final KafkaProducer<String, InferenceRequest> producer;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Deserializer<ResponseChunk> responses;
  private final Deserializer<TokenChunk> chunks;
  private final String requestTopic;
  private final String responseTopic;
  private final String tokenTopic;
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
   * @param chunkObserver called on the reader thread with each pending request's tokens as they are
   *     read, each index once and in order, then with its last chunk (a load generator times chunks
   *     with it); must not block
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
    consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(), new ByteArrayDeserializer());
    responses = serdes.value(Topics.RESPONSES).deserializer();
    chunks = serdes.value(Topics.TOKENS).deserializer();
    responseTopic = cluster.catalogue().name(Topics.RESPONSES);
    tokenTopic = cluster.catalogue().name(Topics.TOKENS);
    reader = new Thread(this::read, "inference-client-responses");
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

  private void read() {
    try {
      final List<TopicPartition> partitions = new ArrayList<>(partitions(responseTopic));
      partitions.addAll(partitions(tokenTopic));
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

  private List<TopicPartition> partitions(final String topic) {
    final List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    if (partitions.isEmpty()) {
      throw new IllegalStateException("Topic " + topic + " does not exist; provision the topics (zerolayer topics)"
          + " first");
    }
    return partitions;
  }

  private void poll() {
    final ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(200));
    for (final TopicPartition partition : records.partitions()) {
      for (final ConsumerRecord<String, byte[]> record : records.records(partition)) {
        if (!readable(record)) {
          // The record is fine; the registry is down. Read it and the rest of its partition again on the next poll.
          consumer.seek(partition, record.offset());
          break;
        }
      }
    }
  }

  /** Hands a record to its pending request; false when it must be read again later. */
  private boolean readable(final ConsumerRecord<String, byte[]> record) {
    if (record.key() == null || !pending.containsKey(record.key()) || record.value() == null) {
      return true;
    }
    try {
      if (record.topic().equals(tokenTopic)) {
        deliver(record.key(), chunks.deserialize(record.topic(), record.value()));
      } else {
        deliver(responses.deserialize(record.topic(), record.value()));
      }
      return true;
    } catch (final SerializationException e) {
      if (SchemaRegistryUnavailableException.causedBy(e)) {
        return false;
      }
      LOG.warn("Skipping an unreadable record at {}-{}@{}: {}", record.topic(), record.partition(), record.offset(),
          e.getMessage());
      return true;
    }
  }

  private void failAll(final Throwable cause) {
    failure = cause;
    pending.values().forEach(entry -> entry.future.completeExceptionally(cause));
    pending.clear();
  }

  /** A worker's chunk: its new tokens go on at once if it belongs to the stream. */
  private void deliver(final String sequenceId, final TokenChunk chunk) {
    final Pending entry = pending.get(sequenceId);
    if (entry == null) {
      return;
    }
    try {
      final ResponseChunk fresh = entry.merger.fromWorker(chunk);
      if (fresh != null) {
        chunkObserver.accept(fresh);
      }
    } catch (final IllegalStateException e) {
      pending.remove(sequenceId);
      entry.future.completeExceptionally(e);
    }
  }

  /** A durable chunk: what the workers' chunks did not bring yet goes on; the last one completes the response. */
  private void deliver(final ResponseChunk chunk) {
    final Pending entry = pending.get(chunk.getSequenceId());
    if (entry == null) {
      return;
    }
    try {
      final ResponseChunk fresh = entry.merger.fromDurable(chunk);
      if (fresh != null) {
        chunkObserver.accept(fresh);
      }
      final Response response = entry.assembler.add(chunk);
      if (response != null) {
        pending.remove(chunk.getSequenceId());
        if (entry.merger.divergences() > 0 || !entry.merger.passed().equals(response.tokens())) {
          // Never expected (both streams follow the tokens log's order); a response that broke its promise fails.
          entry.future.completeExceptionally(new IllegalStateException("Response of " + chunk.getSequenceId()
              + ": the tokens passed on as the workers wrote them differ from the durable stream ("
              + entry.merger.divergences() + " differing, " + entry.merger.passed().size() + " passed on, "
              + response.tokens().size() + " durable)"));
          return;
        }
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
    private final StreamMerger merger;

    private Pending(final String sequenceId) {
      this.assembler = new ResponseAssembler(sequenceId);
      this.merger = new StreamMerger(sequenceId);
    }
  }
}
