package io.zerolayer.tokenbuffer.internal;

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

  private final String storeName;
  private final String tokensStore;
  private final String responses;
  private final String holds;
  private final SequenceMeters meters;
  private final boolean cutover;
  private ProcessorContext<String, SpecificRecord> context;
  private KeyValueStore<String, SequenceState> sequences;
  private TokenStore tokens;

  /**
   * @param responses child that writes response chunks
   * @param holds child that writes the releases of sequence ids
   * @param cutover whether failed attempts go to a backup; if not, a decision for an attempt that
   *     already failed ends its sequence
   */
  public ApplyDecisionsProcessor(final String storeName, final String tokensStore, final String responses,
      final String holds, final SequenceMeters meters, final boolean cutover) {
    this.storeName = storeName;
    this.tokensStore = tokensStore;
    this.responses = responses;
    this.holds = holds;
    this.meters = meters;
    this.cutover = cutover;
  }

  @Override
  public void init(final ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.sequences = context.getStateStore(storeName);
    this.tokens = new TokenStore(context.getStateStore(tokensStore));
  }

  @Override
  public void process(final Record<String, RoutingDecision> record) {
    if (record.value() == null) {
      throw new InvalidRecordException("routing decision without a value (key " + record.key() + ")");
    }
    if (!record.value().getSequenceId().equals(record.key())) {
      throw new InvalidRecordException("decision for sequence " + record.value().getSequenceId() + " keyed by "
          + record.key() + ": a decision is keyed by its sequence id");
    }
    final SequenceState current = sequences.get(record.key());
    final long nowMs = context.currentSystemTimeMs();
    final SequenceLedger.Step decided = SequenceDecisions.decide(current, record.value(),
        count -> tokens.first(record.key(), count), nowMs);
    final SequenceLedger.Step step = cutover ? decided : SequenceLedger.endIfFailed(decided, nowMs);
    if (step.state() != null) {
      sequences.put(record.key(), step.state());
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
          ReplyTopics.headersFor(record.value().getReplyTopic())), responses);
    }
    if (HoldRelease.releases(current, step.state())) {
      context.forward(new Record<String, SpecificRecord>(record.key(), null, record.timestamp()), holds);
    }
  }
}
