package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.StallDetected;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.router.policy.PrefixMatch;
import io.zerolayer.router.policy.RequestProfile;
import io.zerolayer.runtime.DeadLetters;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cut-over (DESIGN section 7): for a stalled attempt, picks a backup that is never the stalled
 * instance, writes the decision with epoch + 1 and the resume index, dispatches the resume
 * task and cancels the old attempt. With no other instance to take it, a sequence that still
 * streams goes on and a quiet one waits, up to the hold, for token-buffer's next report; then it
 * is throttled, its stream ended by an end chunk in the tokens log. All through the caller's
 * transaction, so an aborted transaction handles the stall again. A repeated report of an attempt this router cut over
 * already changes nothing (see {@link HandledStalls}).
 */
public final class StallRouter {

  private static final Logger LOG = LoggerFactory.getLogger(StallRouter.class);

  private final TopicCatalogue catalogue;
  private final Deserializer<StallDetected> stalls;
  private final RequestLookup lookup;
  private final StallDecider decider;
  private final PromptText promptText = new PromptText();
  private final HeatmapView heatmap;
  private final RouterRecords records;
  private final RecordWriter writer;
  private final RouterMeters meters;
  private final HandledStalls handled = new HandledStalls();
  private final long holdMs;

  public StallRouter(final TopicCatalogue catalogue, final ContractSerdes serdes, final RequestLookup lookup,
      final StallDecider decider, final HeatmapView heatmap, final RouterRecords records, final RecordWriter writer,
      final RouterMeters meters, final Duration hold) {
    this.catalogue = requireNonNull(catalogue, "catalogue");
    this.stalls = serdes.value(Topics.STALLS).deserializer();
    this.lookup = requireNonNull(lookup, "lookup");
    this.decider = requireNonNull(decider, "decider");
    this.heatmap = requireNonNull(heatmap, "heatmap");
    this.records = requireNonNull(records, "records");
    this.writer = requireNonNull(writer, "writer");
    this.meters = requireNonNull(meters, "meters");
    this.holdMs = hold.toMillis();
  }

  /** Cuts the stalled attempt over, through the producer (inside an open transaction). */
  public void route(final ConsumerRecord<byte[], byte[]> record, final Producer<byte[], byte[]> out) {
    final StallDetected stall;
    try {
      stall = requireNonNull(stalls.deserialize(record.topic(), record.value()), "stall record has no value");
      requireNonNull(record.key(), "stall record without a key (its sequence id)");
    } catch (final SerializationException | NullPointerException e) {
      out.send(DeadLetters.of(catalogue.name(Topics.INFERENCE_DLQ), record, e));
      meters.deadLettered();
      return;
    }
    if (handled.handled(stall.getRequestPartition(), stall.getRequestOffset(), stall.getEpoch())) {
      LOG.debug("{} (epoch {}) was cut over already; repeated report ignored: {}", stall.getSequenceId(),
          stall.getEpoch(), stall.getReason());
      return;
    }
    if (stall.getQueued() && !decider.movesQueuedAttempts()) {
      // The policy leaves a queued attempt where it waits: no need to read its request.
      meters.waited();
      return;
    }
    final Optional<InferenceRequest> request = lookup.find(stall.getRequestPartition(), stall.getRequestOffset());
    if (request.isEmpty()) {
      LOG.warn("Cannot cut over {} (epoch {}): its request at {}/{} is gone or unreadable", stall.getSequenceId(),
          stall.getEpoch(), stall.getRequestPartition(), stall.getRequestOffset());
      return;
    }
    final long now = System.currentTimeMillis();
    final String prompt = PromptText.of(request.get());
    final int inputTokens = promptText.tokens(prompt);
    final RequestProfile profile = new RequestProfile(stall.getSequenceId(), inputTokens,
        Math.max(1, request.get().getMaxOutputTokens() - stall.getNextIndex()), request.get().getIgnoreEos(),
        PrefixMatch.NONE, null);
    final Optional<Decision> chosen = stall.getQueued()
        ? decider.moveQueued(profile, request.get().getModel(), heatmap.current(), stall.getInstanceId(),
            stall.getReason(), stall.getEpoch(), now)
        // An attempt that never joined the stream (it resumed behind it) did not fail on its instance.
        : decider.decide(profile, request.get().getModel(), heatmap.current(), stall.getInstanceId(),
            stall.getReason(), stall.getEpoch() - stall.getBehindAttempts(), stall.getQuietMs() < holdMs, now);
    if (chosen.isEmpty()) {
      // token-buffer reports the attempt again while it is stalled; it may find an instance then.
      LOG.debug("{} (epoch {}) stalled on {} ({}), quiet for {} ms; no other instance can take it yet",
          stall.getSequenceId(), stall.getEpoch(), stall.getInstanceId(), stall.getReason(), stall.getQuietMs());
      meters.waited();
      return;
    }
    final Decision decision = chosen.get();
    final RoutingDecision decided = records.cutover(request.get(), stall, decision, inputTokens, now);
    writer.send(out, Topics.DECISIONS, decided.getSequenceId(), decided);
    if (decision.dispatched()) {
      writer.send(out, Topics.DISPATCH, decided.getInstanceId(), records.dispatch(request.get(), decided, prompt,
          decision, stall));
    } else {
      // Ends the stream in the tokens log, where the old attempt may still be writing: every reader
      // of the log, token-buffer and a client's fast path alike, ends it at the same token.
      writer.send(out, Topics.TOKENS, decided.getSequenceId(), records.end(stall, decided));
    }
    writer.send(out, Topics.COMMANDS, stall.getInstanceId(), records.cancel(stall, now));
    handled.handle(stall.getRequestPartition(), stall.getRequestOffset(), stall.getEpoch());
    meters.decided(decided.getOutcome(), record.timestamp(), now);
  }

  /** The transaction of the stalls routed since the last call ended; whether it committed. */
  public void settle(final boolean committed) {
    handled.settle(committed);
  }
}
