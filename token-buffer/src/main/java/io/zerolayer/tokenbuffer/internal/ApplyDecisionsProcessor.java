package io.zerolayer.tokenbuffer.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.runtime.InvalidRecordException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Records each routing decision (epoch, owner, outcome) in the sequence and token stores (a
 * record without a value, or keyed by another sequence, is dead-lettered before); answers
 * the client, and releases the sequence's id when the decision ended a dispatched sequence.
 */
public final class ApplyDecisionsProcessor implements Processor<String, RoutingDecision, String, SpecificRecord> {

  private final AcceptTokensProcessor.Wiring wiring;
  private final SequenceMeters meters;
  private ProcessorContext<String, SpecificRecord> context;
  private KeyValueStore<String, SequenceState> sequences;
  private TokenStore tokens;
  private LiveSequences live;

  /**
   * @param wiring the stores and children it shares with {@link AcceptTokensProcessor}; with
   *     cut-over off, a decision for an attempt that already failed ends its sequence
   */
  public ApplyDecisionsProcessor(final AcceptTokensProcessor.Wiring wiring, final SequenceMeters meters) {
    this.wiring = requireNonNull(wiring, "wiring");
    this.meters = requireNonNull(meters, "meters");
  }

  @Override
  public void init(final ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.sequences = context.getStateStore(wiring.storeName());
    this.tokens = new TokenStore(context.getStateStore(wiring.tokensStore()));
    this.live = new LiveSequences(context.getStateStore(wiring.liveStore()));
  }

  @Override
  public void process(final Record<String, RoutingDecision> record) {
    if (record.value() == null) {
      throw new InvalidRecordException("routing decision without a value (key " + record.key() + ")");
    }
    if (record.key() == null) {
      throw new InvalidRecordException("routing decision without a key (its sequence id)");
    }
    if (!record.value().getSequenceId().equals(record.key())) {
      throw new InvalidRecordException("decision for sequence " + record.value().getSequenceId() + " keyed by "
          + record.key() + ": a decision is keyed by its sequence id");
    }
    final SequenceState current = sequences.get(record.key());
    final long nowMs = context.currentSystemTimeMs();
    final SequenceLedger.Step decided = SequenceDecisions.decide(current, record.value(),
        count -> tokens.first(record.key(), count), nowMs);
    final SequenceLedger.Step step = wiring.cutover() ? decided : SequenceLedger.endIfFailed(decided, nowMs);
    if (step.state() != null) {
      sequences.put(record.key(), step.state());
      live.note(record.key(), step.state(), nowMs);
      tokens.apply(record.key(), step);
      if (current == null || current.getOutcome() == null) {
        meters.started();
      }
      if (step.state().getStatus() == SequenceStatus.FINISHED) {
        meters.finished();
      }
    }
    if (step.response() != null) {
      context.forward(new Record<String, SpecificRecord>(record.key(), step.response(), record.timestamp(),
          ReplyTopics.headersFor(record.value().getReplyTopic())), wiring.responses());
    }
    if (HoldRelease.releases(current, step.state())) {
      context.forward(new Record<String, SpecificRecord>(record.key(), null, record.timestamp()), wiring.holds());
    }
  }
}
