package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.SequenceStatus;
import io.zerolayer.contract.avro.TokenChunk;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** Accepts workers' token chunks into the sequence store and emits exactly the new tokens. */
public final class AcceptTokensProcessor implements Processor<String, TokenChunk, String, ResponseChunk> {

  private final String storeName;
  private final SequenceMeters meters;
  private ProcessorContext<String, ResponseChunk> context;
  private KeyValueStore<String, SequenceState> sequences;

  public AcceptTokensProcessor(final String storeName, final SequenceMeters meters) {
    this.storeName = storeName;
    this.meters = meters;
  }

  @Override
  public void init(final ProcessorContext<String, ResponseChunk> context) {
    this.context = context;
    this.sequences = context.getStateStore(storeName);
  }

  @Override
  public void process(final Record<String, TokenChunk> record) {
    if (record.key() == null || record.value() == null) {
      return;
    }
    final SequenceLedger.Step step = SequenceLedger.accept(sequences.get(record.key()), record.value(),
        context.currentSystemTimeMs());
    meters.chunk(step.verdict());
    if (step.state() == null) {
      return;
    }
    sequences.put(record.key(), step.state());
    if (step.response() != null) {
      if (step.state().getStatus() == SequenceStatus.FINISHED) {
        meters.finished();
      }
      context.forward(new Record<>(record.key(), step.response(), record.timestamp(),
          ReplyTopics.headersFor(step.state().getReplyTopic())));
    }
  }
}
