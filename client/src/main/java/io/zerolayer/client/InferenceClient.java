package io.zerolayer.client;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * An application's side of Zerolayer: publishes requests to the ingress topic and hands back
 * each one's ordered response stream. It reads both the workers' token chunks, for each token the
 * moment it is written, and the durable response topic (committed records only), which ends each
 * stream with its outcome and usage ({@link StreamMerger}), from the moment it starts, so submit
 * after construction ({@link ResponseReader}). A response whose tokens as passed on
 * differ from the durable stream's fails rather than completes. If its reader stops, every pending
 * and later response fails with the cause instead of waiting forever.
 */
public final class InferenceClient implements AutoCloseable {

  /** How long {@link #follow} waits for the reader to reach a partition outside the client's share. */
  public static final Duration WATCH_TIMEOUT = Duration.ofSeconds(5);

  private final KafkaProducer<String, InferenceRequest> producer;
  private final String requestTopic;
  private final Map<String, PendingResponse> pending = new ConcurrentHashMap<>();
  private final Map<String, FollowedStream> followers = new ConcurrentHashMap<>();
  private final Consumer<ResponseChunk> chunkObserver;
  private final ResponseReader reader;

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
    this(cluster, serdes, chunkObserver, PartitionShare.all());
  }

  /**
   * A client that reads only its share of the token and response topics' partitions: its
   * requests' ids must land in it ({@link #newSequenceId}); a sequence outside it can still be
   * followed.
   *
   * @param chunkObserver as above
   */
  public InferenceClient(final ClusterSettings cluster, final ContractSerdes serdes,
      final Consumer<ResponseChunk> chunkObserver, final PartitionShare share) {
    requireNonNull(cluster, "cluster");
    this.chunkObserver = requireNonNull(chunkObserver, "chunkObserver");
    requestTopic = cluster.catalogue().name(Topics.REQUESTS);
    reader = new ResponseReader(cluster, serdes, pending, followers, share);
    final Map<String, Object> producerProps = new HashMap<>(cluster.clientProperties());
    producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    producerProps.put(ProducerConfig.LINGER_MS_CONFIG, 1);
    producer = new KafkaProducer<>(producerProps, new StringSerializer(),
        serdes.value(Topics.REQUESTS).serializer());
  }

  /**
   * A new sequence id, {@code prefix} and a random UUID, whose records land in this client's share
   * of the partitions.
   */
  public String newSequenceId(final String prefix) {
    while (true) {
      final String id = prefix + UUID.randomUUID();
      if (reader.holds(PartitionShare.partitionOf(id, reader.partitions()))) {
        return id;
      }
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
   *     read from a worker carries the instance, the epoch and how the attempt was routed. The last
   *     chunk comes from the worker when its engine finished a served attempt, before the durable
   *     stream's end, which the future waits for and checks the tokens against.
   */
  public CompletableFuture<Response> submit(final InferenceRequest request, final Consumer<ResponseChunk> listener) {
    return submit(request, listener, startedAtMs -> { });
  }

  /**
   * As {@link #submit(InferenceRequest, Consumer)}, telling {@code started} once when a worker had
   * the request: the emit time (the worker's clock, ms) of the first chunk a worker wrote for it,
   * its claim on the stream or a heartbeat while it waits for the engine. Called on the reader
   * thread; must not block.
   */
  public CompletableFuture<Response> submit(final InferenceRequest request, final Consumer<ResponseChunk> listener,
      final LongConsumer started) {
    requireNonNull(listener, "listener");
    requireNonNull(started, "started");
    if (request.getReplyTopic() != null) {
      return CompletableFuture.failedFuture(new IllegalArgumentException("This client reads the response topic of"
          + " the catalogue; to use reply topic " + request.getReplyTopic() + ", read it with a consumer of your own"));
    }
    if (reader.failure() != null) {
      return CompletableFuture.failedFuture(reader.failure());
    }
    final int partition = PartitionShare.partitionOf(request.getSequenceId(), reader.partitions());
    if (!reader.holds(partition)) {
      return CompletableFuture.failedFuture(new IllegalArgumentException("Sequence id " + request.getSequenceId()
          + " lands on partition " + partition + ", outside the partitions this client reads; make its ids with"
          + " newSequenceId"));
    }
    final PendingResponse entry = new PendingResponse(request.getSequenceId(), chunk -> {
      chunkObserver.accept(chunk);
      listener.accept(chunk);
    }, started);
    if (pending.putIfAbsent(request.getSequenceId(), entry) != null) {
      return CompletableFuture.failedFuture(new IllegalArgumentException("This client already waits for sequence "
          + request.getSequenceId() + "; give every request a new sequence id (newSequenceId)"));
    }
    try {
      producer.send(new ProducerRecord<>(requestTopic, request.getSequenceId(), request), (metadata, error) -> {
        if (error != null) {
          pending.remove(request.getSequenceId());
          entry.fail(error);
        } else {
          entry.placed(metadata.partition(), metadata.offset());
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
   * @throws IllegalArgumentException when this client already follows the sequence
   * @throws IllegalStateException when its reader stopped, or could not start reading the
   *     sequence's partition (outside this client's share) within {@link #WATCH_TIMEOUT}
   */
  public FollowedStream follow(final String sequenceId, final Consumer<ResponseChunk> listener)
      throws InterruptedException {
    requireNonNull(sequenceId, "sequenceId");
    if (reader.failure() != null) {
      throw new IllegalStateException("The response reader stopped: " + reader.failure().getMessage(),
          reader.failure());
    }
    final FollowedStream followed = new FollowedStream(sequenceId, listener);
    if (followers.putIfAbsent(sequenceId, followed) != null) {
      throw new IllegalArgumentException("This client already follows the stream of " + sequenceId);
    }
    followed.future().whenComplete((response, error) -> followers.remove(sequenceId, followed));
    final int partition = PartitionShare.partitionOf(sequenceId, reader.partitions());
    if (!reader.holds(partition)) {
      try {
        final Runnable release = reader.watch(partition, WATCH_TIMEOUT);
        followed.future().whenComplete((response, error) -> release.run());
      } catch (final IllegalStateException | InterruptedException e) {
        followers.remove(sequenceId, followed);
        throw e;
      }
    }
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

  @Override
  public void close() {
    reader.close();
    producer.close(Duration.ofSeconds(5));
  }
}
