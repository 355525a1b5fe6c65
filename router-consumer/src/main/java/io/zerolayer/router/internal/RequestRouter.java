package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Turns one request record into its records: the decision, and for a routed request the
 * pre-warm command, the hold of its sequence id and the dispatch task. All go through the
 * caller's transaction.
 */
public final class RequestRouter {

  private final TopicCatalogue catalogue;
  private final Deserializer<InferenceRequest> requests;
  private final RecordWriter writer;
  private final RequestDecider decider;
  private final HeatmapView heatmap;
  private final RouterRecords records;
  private final RouterMeters meters;
  private final RequestLookup lookup;

  /**
   * @param lookup keeps the requests dispatched, for their cut-overs
   */
  public RequestRouter(final TopicCatalogue catalogue, final ContractSerdes serdes, final RequestDecider decider,
      final HeatmapView heatmap, final RouterRecords records, final RecordWriter writer, final RouterMeters meters,
      final RequestLookup lookup) {
    this.catalogue = requireNonNull(catalogue, "catalogue");
    this.requests = serdes.value(Topics.REQUESTS).deserializer();
    this.writer = requireNonNull(writer, "writer");
    this.decider = requireNonNull(decider, "decider");
    this.heatmap = requireNonNull(heatmap, "heatmap");
    this.records = requireNonNull(records, "records");
    this.meters = requireNonNull(meters, "meters");
    this.lookup = requireNonNull(lookup, "lookup");
  }

  /** Routes one request record through the producer (inside an open transaction). */
  public void route(final ConsumerRecord<byte[], byte[]> record, final Producer<byte[], byte[]> out) {
    final long now = System.currentTimeMillis();
    final String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    final InferenceRequest request;
    try {
      request = requests.deserialize(record.topic(), record.value());
      if (request == null) {
        throw new SerializationException("Request record has no value (a tombstone)");
      }
      if (key == null) {
        throw new SerializationException("Request record without a key (its sequence id)");
      }
    } catch (final SerializationException e) {
      deadLetter(record, key, e, out, now);
      return;
    }
    final String traceId = request.getTraceId() == null ? newTraceId() : request.getTraceId();
    final RequestDecider.Result result = decider.decide(key, request, record.partition(), record.offset(),
        heatmap::current, now, System.nanoTime());
    final RoutingDecision decided = records.decision(request, result.decision(), result.inputTokens(), traceId, now,
        record.partition(), record.offset());
    decided.setTenantId(result.tenantId());
    decided.setReplyTopic(result.replyTopic());
    if (key != null && !key.equals(request.getSequenceId())) {
      // The client listens by the key it used; answer there.
      decided.setSequenceId(key);
    }
    if (result.decision().preWarm()) {
      final String cold = result.decision().preWarmInstance();
      writer.send(out, Topics.COMMANDS, cold, records.preWarm(decided, cold));
    }
    writer.send(out, Topics.DECISIONS, decided.getSequenceId(), decided);
    if (result.decision().dispatched()) {
      writer.send(out, Topics.SEQUENCE_HOLDS, decided.getSequenceId(), records.hold(decided));
      writer.send(out, Topics.DISPATCH, decided.getInstanceId(), records.dispatch(request, decided, result.prompt(),
          result.decision(), null));
      lookup.remember(record.partition(), record.offset(), request);
    }
    meters.decided(decided.getOutcome(), record.timestamp(), now);
  }

  /** Settles the decisions of the transaction just ended: committed, or aborted and to be read again. */
  public void settle(final boolean committed) {
    decider.settle(committed, System.nanoTime());
  }

  private void deadLetter(final ConsumerRecord<byte[], byte[]> record, final String key,
      final SerializationException reason, final Producer<byte[], byte[]> out, final long now) {
    out.send(DeadLetters.of(catalogue.name(Topics.INFERENCE_DLQ), record, reason));
    meters.deadLettered();
    if (key != null && !key.isBlank()) {
      final RoutingDecision rejected = records.unreadable(key, "the request could not be read: "
          + reason.getMessage() + "; publish an InferenceRequest with the project's serializer", newTraceId(), now,
          record.partition(), record.offset());
      writer.send(out, Topics.DECISIONS, key, rejected);
      meters.decided(rejected.getOutcome(), record.timestamp(), now);
    }
  }

  private static String newTraceId() {
    return UUID.randomUUID().toString();
  }
}
