package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.router.policy.RequestProfile;
import io.zerolayer.runtime.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Turns one request record into its records: the decision, and for a routed request the
 * pre-warm command and the dispatch task. All go through the caller's transaction.
 */
public final class RequestRouter {

  private final TopicCatalogue catalogue;
  private final Deserializer<InferenceRequest> requests;
  private final Serializer<SpecificRecord> values;
  private final RequestValidator validator;
  private final Decider decider;
  private final HeatmapView heatmap;
  private final RouterRecords records;
  private final RouterMeters meters;
  private final LocalDispatches dispatches = new LocalDispatches();

  public RequestRouter(final TopicCatalogue catalogue, final ContractSerdes serdes, final RequestValidator validator,
      final Decider decider, final HeatmapView heatmap, final RouterRecords records, final RouterMeters meters) {
    this.catalogue = requireNonNull(catalogue, "catalogue");
    this.requests = serdes.value(Topics.REQUESTS).deserializer();
    this.values = serdes.anyRecordSerializer();
    this.validator = requireNonNull(validator, "validator");
    this.decider = requireNonNull(decider, "decider");
    this.heatmap = requireNonNull(heatmap, "heatmap");
    this.records = requireNonNull(records, "records");
    this.meters = requireNonNull(meters, "meters");
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
    } catch (final SerializationException e) {
      out.send(DeadLetters.of(catalogue.name(Topics.INFERENCE_DLQ), record, e));
      meters.deadLettered();
      if (key != null && !key.isBlank()) {
        final RoutingDecision rejected = records.unreadable(key, "the request could not be read: " + e.getMessage()
            + "; publish an InferenceRequest with the project's serializer", newTraceId(), now);
        send(out, Topics.DECISIONS, key, rejected);
        meters.decided(rejected.getOutcome(), record.timestamp(), now);
      }
      return;
    }
    final String traceId = request.getTraceId() == null ? newTraceId() : request.getTraceId();
    final String prompt = PromptText.of(request);
    final int inputTokens = PromptText.estimateTokens(prompt);
    final Optional<String> rejection = validator.rejection(key, request);
    final Decision decision = rejection
        .map(reason -> new Decision(RoutingOutcome.REJECTED, null, reason, null, null))
        .orElseGet(() -> decider.select(new RequestProfile(request.getSequenceId(), inputTokens,
            request.getMaxOutputTokens()), dispatches.applyTo(heatmap.current(), now), heatmap::current));
    final String sequenceKey = rejection.isPresent() && key != null ? key : request.getSequenceId();
    final RoutingDecision decided = records.decision(request, decision, inputTokens, traceId, now);
    decided.setSequenceId(sequenceKey);
    if (decision.preWarm()) {
      send(out, Topics.COMMANDS, decided.getInstanceId(), records.preWarm(decided));
    }
    send(out, Topics.DECISIONS, sequenceKey, decided);
    if (decision.dispatched()) {
      send(out, Topics.DISPATCH, decided.getInstanceId(), records.dispatch(request, decided, prompt));
      dispatches.record(decided.getInstanceId(), now);
    }
    meters.decided(decision.outcome(), record.timestamp(), now);
  }

  private void send(final Producer<byte[], byte[]> out, final Topic<String, ?> topic,
      final String key, final SpecificRecord value) {
    final String name = catalogue.name(topic);
    out.send(new ProducerRecord<>(name, key.getBytes(StandardCharsets.UTF_8), values.serialize(name, value)));
  }

  private static String newTraceId() {
    return UUID.randomUUID().toString();
  }
}
