package io.zerolayer.tokenbuffer;

import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.tokenbuffer.internal.AcceptTokensProcessor;
import io.zerolayer.tokenbuffer.internal.ApplyDecisionsProcessor;
import io.zerolayer.tokenbuffer.internal.ReplyTopics;
import io.zerolayer.tokenbuffer.internal.SequenceMeters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/**
 * The token plane: routing decisions and workers' token chunks, co-partitioned by sequence id,
 * into one sequence store; ordered, de-duplicated response chunks out.
 */
public final class TokenBufferTopology {

  /** Per sequence: epoch, owner, outcome, tokens accepted so far. */
  public static final String SEQUENCE_STORE = "sequence-store";
  static final String READ_DECISIONS = "read-decisions";
  static final String READ_TOKENS = "read-tokens";
  static final String APPLY_DECISIONS = "apply-decisions";
  static final String ACCEPT_TOKENS = "accept-tokens";
  static final String MERGE_RESPONSES = "merge-responses";
  static final String WRITE_RESPONSES = "write-responses";

  private TokenBufferTopology() {
  }

  /** Builds the topology; no I/O. */
  public static Topology build(final TopicCatalogue catalogue, final ContractSerdes serdes,
      final MeterRegistry registry) {
    final SequenceMeters meters = new SequenceMeters(registry);
    final StreamsBuilder builder = new StreamsBuilder();
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SEQUENCE_STORE),
        serdes.key(), serdes.value(SequenceState.class)));
    final KStream<String, ResponseChunk> fromDecisions = builder
        .stream(catalogue.name(Topics.DECISIONS),
            Consumed.with(serdes.key(), serdes.value(Topics.DECISIONS)).withName(READ_DECISIONS))
        .process(() -> new ApplyDecisionsProcessor(SEQUENCE_STORE, meters), Named.as(APPLY_DECISIONS), SEQUENCE_STORE);
    final KStream<String, ResponseChunk> fromTokens = builder
        .stream(catalogue.name(Topics.TOKENS),
            Consumed.with(serdes.key(), serdes.value(Topics.TOKENS)).withName(READ_TOKENS))
        .process(() -> new AcceptTokensProcessor(SEQUENCE_STORE, meters), Named.as(ACCEPT_TOKENS), SEQUENCE_STORE);
    fromDecisions.merge(fromTokens, Named.as(MERGE_RESPONSES))
        .to(new ReplyTopics(catalogue.name(Topics.RESPONSES)),
            Produced.with(serdes.key(), serdes.value(Topics.RESPONSES)).withName(WRITE_RESPONSES));
    return builder.build();
  }
}
