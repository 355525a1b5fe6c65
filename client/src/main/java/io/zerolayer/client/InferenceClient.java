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
  private final Map<String, PendingResponse> pending = new ConcurrentHashMap<>();
  private final Map<String, FollowedStream> followers = new ConcurrentHashMap<>();
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
    return submit(request, chunk -> { });
  }

  /**
   * Publishes a request and hands its stream on as it comes; the future completes with the whole
   * stream.
   *
   * @param listener called on the reader thread with the request's tokens as they are read, each
   *     index once and in order, then with its last chunk (outcome, usage); must not block. A chunk
   *     read from a worker carries the instance, the epoch and how the attempt was routed.
   */
  public CompletableFuture<Response> submit(final InferenceRequest request, final Consumer<ResponseChunk> listener) {
    requireNonNull(listener, "listener");
    if (request.getReplyTopic() != null) {
      return CompletableFuture.failedFuture(new IllegalArgumentException("This client reads the response topic of"
          + " the catalogue; to use reply topic " + request.getReplyTopic() + ", read it with a consumer of your own"));
    }
    if (failure != null) {
      return CompletableFuture.failedFuture(failure);
    }
    final PendingResponse entry = new PendingResponse(request.getSequenceId(), chunk -> {
      chunkObserver.accept(chunk);
      listener.accept(chunk);
    });
    pending.put(request.getSequenceId(), entry);
    try {
      producer.send(new ProducerRecord<>(requestTopic, request.getSequenceId(), request), (metadata, error) -> {
        if (error != null) {
          pending.remove(request.getSequenceId());
          entry.fail(error);
        }
      });
    } catch (final KafkaException e) {
      pending.remove(request.getSequenceId());
      entry.fail(e);
    }
    return entry.future();
  }

  /**
   * Follows a sequence from where it stands, without publishing anything: reads its durable
   * response stream from now on, and hands it on once {@link FollowedStream#start} says what was
   * persisted before; {@link FollowedStream#stop} ends it. A sequence this client submitted can
   * be followed too (its first connection may not have noticed yet that its client is gone), but
   * by one follower at a time.
   *
   * @param listener called on the reader thread with each new part of the stream after the
   *     persisted tokens, then with its last chunk; must not block
   * @throws IllegalStateException when this client already follows the sequence
   */
  public FollowedStream follow(final String sequenceId, final Consumer<ResponseChunk> listener) {
    requireNonNull(sequenceId, "sequenceId");
    if (failure != null) {
      throw new IllegalStateException("The response reader stopped: " + failure.getMessage(), failure);
    }
    final FollowedStream followed = new FollowedStream(sequenceId, listener);
    if (followers.putIfAbsent(sequenceId, followed) != null) {
      throw new IllegalStateException("This client already follows the stream of " + sequenceId);
    }
    followed.future().whenComplete((response, error) -> followers.remove(sequenceId, followed));
    return followed;
  }

  /**
   * Stops waiting for a request (its client went away): its future fails, and nothing more of its
   * stream is handed on.
   */
  public void abandon(final String sequenceId) {
    final PendingResponse entry = pending.remove(sequenceId);
    if (entry != null) {
      entry.fail(new IllegalStateException("the response of " + sequenceId + " was abandoned"));
    }
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
    if (record.key() == null || record.value() == null
        || !pending.containsKey(record.key()) && !followers.containsKey(record.key())) {
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
    pending.values().forEach(entry -> entry.fail(cause));
    pending.clear();
    followers.values().forEach(entry -> entry.fail(cause));
  }

  /** Hands a worker's chunk to its pending request; followers read the durable stream alone. */
  private void deliver(final String sequenceId, final TokenChunk chunk) {
    final PendingResponse entry = pending.get(sequenceId);
    if (entry == null) {
      return;
    }
    try {
      entry.fromWorker(chunk);
    } catch (final IllegalStateException e) {
      pending.remove(sequenceId);
      entry.fail(e);
    }
  }

  /** Hands a durable chunk to its pending request and its follower; the last one ends them. */
  private void deliver(final ResponseChunk chunk) {
    deliver(pending, chunk);
    deliver(followers, chunk);
  }

  private static <A extends Awaited> void deliver(final Map<String, A> waiting, final ResponseChunk chunk) {
    final A entry = waiting.get(chunk.getSequenceId());
    if (entry == null) {
      return;
    }
    try {
      if (entry.fromDurable(chunk)) {
        waiting.remove(chunk.getSequenceId(), entry);
      }
    } catch (final IllegalStateException e) {
      waiting.remove(chunk.getSequenceId(), entry);
      entry.fail(e);
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
}
