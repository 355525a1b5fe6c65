package io.zerolayer.tokenbuffer;

import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.tokenbuffer.internal.AcceptTokensProcessor;
import io.zerolayer.tokenbuffer.internal.ApplyDecisionsProcessor;
import io.zerolayer.tokenbuffer.internal.ReplyTopics;
import io.zerolayer.tokenbuffer.internal.SequenceMeters;
import io.zerolayer.tokenbuffer.internal.StallDetector;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The token plane: routing decisions and workers' token chunks, co-partitioned by sequence id,
 * into one sequence store; ordered, de-duplicated response chunks and stall reports out.
 */
public final class TokenBufferTopology {

  /** Per sequence: epoch, owner, outcome, tokens accepted so far, cadence. */
  public static final String SEQUENCE_STORE = "sequence-store";
  static final String READ_DECISIONS = "read-decisions";
  static final String READ_TOKENS = "read-tokens";
  static final String APPLY_DECISIONS = "apply-decisions";
  static final String ACCEPT_TOKENS = "accept-tokens";
  static final String WRITE_RESPONSES = "write-responses";
  static final String WRITE_STALLS = "write-stalls";

  private TokenBufferTopology() {
  }

  /** Builds the topology; no I/O. */
  public static Topology build(final TokenBufferConfig config, final TopicCatalogue catalogue,
      final ContractSerdes serdes, final MeterRegistry registry) {
    final SequenceMeters meters = new SequenceMeters(registry);
    final StallDetector detector = new StallDetector(config.instanceTimeout(), config.streamTimeout(),
        config.stallCheckInterval());
    final AcceptTokensProcessor.Wiring wiring = new AcceptTokensProcessor.Wiring(SEQUENCE_STORE, WRITE_RESPONSES,
        WRITE_STALLS, config.stallCheckInterval());
    final Serializer<SpecificRecord> values = serdes.anyRecordSerializer();
    return new Topology()
        .addSource(READ_DECISIONS, serdes.key().deserializer(), serdes.value(Topics.DECISIONS).deserializer(),
            catalogue.name(Topics.DECISIONS))
        .addSource(READ_TOKENS, serdes.key().deserializer(), serdes.value(Topics.TOKENS).deserializer(),
            catalogue.name(Topics.TOKENS))
        .addProcessor(APPLY_DECISIONS, () -> new ApplyDecisionsProcessor(SEQUENCE_STORE, meters), READ_DECISIONS)
        .addProcessor(ACCEPT_TOKENS,
            () -> new AcceptTokensProcessor(wiring, detector, config.finishedRetention(), meters), READ_TOKENS)
        .addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SEQUENCE_STORE),
            serdes.key(), serdes.value(SequenceState.class)), APPLY_DECISIONS, ACCEPT_TOKENS)
        .addSink(WRITE_RESPONSES, new ReplyTopics(catalogue.name(Topics.RESPONSES)), serdes.key().serializer(),
            values, APPLY_DECISIONS, ACCEPT_TOKENS)
        .addSink(WRITE_STALLS, catalogue.name(Topics.STALLS), serdes.key().serializer(), values, ACCEPT_TOKENS);
  }
}
