package io.zerolayer.tokenbuffer;

import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.SequenceState;
import io.zerolayer.contract.avro.TokenRun;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.tokenbuffer.internal.AcceptTokensProcessor;
import io.zerolayer.tokenbuffer.internal.ApplyDecisionsProcessor;
import io.zerolayer.tokenbuffer.internal.InputLag;
import io.zerolayer.tokenbuffer.internal.ReplyTopics;
import io.zerolayer.tokenbuffer.internal.SequenceMeters;
import io.zerolayer.tokenbuffer.internal.SilentOwners;
import io.zerolayer.runtime.KeepLatestProcessor;
import io.zerolayer.tokenbuffer.internal.StallDetector;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The token plane: routing decisions and workers' token chunks, co-partitioned by sequence id,
 * into one sequence store; ordered, de-duplicated response chunks, stall reports and the release
 * of each ended sequence's id out. The
 * heatmap's rows are read into a global store, so an ejected owner's sequences are cut over.
 */
public final class TokenBufferTopology {

  /** Per sequence: epoch, owner, outcome, how many tokens are accepted, cadence. */
  public static final String SEQUENCE_STORE = "sequence-store";
  /** The ids of the sequences the stall checks watch (see {@link io.zerolayer.tokenbuffer.internal.LiveSequences}). */
  static final String LIVE_SEQUENCES_STORE = "live-sequences";
  /** The accepted tokens, one record per chunk (see {@link io.zerolayer.tokenbuffer.internal.TokenStore}). */
  public static final String TOKEN_STORE = "token-store";
  /** What each logged store writes to its changelog: its schema is read ahead when the app starts. */
  public static final Map<String, Class<? extends SpecificRecord>> CHANGELOG_VALUES = Map.of(
      SEQUENCE_STORE, SequenceState.class, TOKEN_STORE, TokenRun.class);
  static final String READ_DECISIONS = "read-decisions";
  static final String READ_TOKENS = "read-tokens";
  static final String APPLY_DECISIONS = "apply-decisions";
  static final String ACCEPT_TOKENS = "accept-tokens";
  static final String WRITE_RESPONSES = "write-responses";
  static final String WRITE_STALLS = "write-stalls";
  static final String WRITE_HOLDS = "write-sequence-holds";
  /** Every heatmap row, on every instance of the app: whether a sequence's owner was ejected. */
  public static final String INSTANCE_SCORES_GLOBAL_STORE = "instance-scores-global-store";
  static final String READ_SCORES = "read-instance-scores";
  static final String KEEP_SCORES = "keep-instance-scores";

  private TokenBufferTopology() {
  }

  /**
   * A task whose consumer is more records than this behind the end of its tokens partition reads
   * late ({@link InputLag}): about a second at 100 requests/s on six partitions, more at lower rates.
   */
  public static final long BEHIND_RECORDS = 100;

  /**
   * Builds the topology; no I/O.
   *
   * @param inputLag how far behind its tokens partitions the app reads; the app feeds it
   */
  public static Topology build(final TokenBufferConfig config, final TopicCatalogue catalogue,
      final ContractSerdes serdes, final MeterRegistry registry, final InputLag inputLag) {
    final SequenceMeters meters = new SequenceMeters(registry);
    final StallDetector detector = new StallDetector(config.instanceTimeout(), config.streamTimeout(),
        config.stallCheckInterval());
    final AcceptTokensProcessor.Wiring wiring = new AcceptTokensProcessor.Wiring(SEQUENCE_STORE, TOKEN_STORE,
        WRITE_RESPONSES, WRITE_STALLS, WRITE_HOLDS, config.stallCheckInterval(), INSTANCE_SCORES_GLOBAL_STORE,
        LIVE_SEQUENCES_STORE, config.cutoverEnabled());
    final SilentOwners silentOwners = new SilentOwners();
    final Serializer<SpecificRecord> values = serdes.anyRecordSerializer();
    return new Topology()
        .addSource(READ_DECISIONS, serdes.key().deserializer(), serdes.value(Topics.DECISIONS).deserializer(),
            catalogue.name(Topics.DECISIONS))
        .addSource(READ_TOKENS, serdes.key().deserializer(), serdes.value(Topics.TOKENS).deserializer(),
            catalogue.name(Topics.TOKENS))
        .addProcessor(APPLY_DECISIONS, () -> new ApplyDecisionsProcessor(wiring, meters), READ_DECISIONS)
        .addProcessor(ACCEPT_TOKENS,
            () -> new AcceptTokensProcessor(wiring, detector, config.finishedRetention(), silentOwners, inputLag,
                meters),
            READ_TOKENS)
        .addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SEQUENCE_STORE),
            serdes.key(), serdes.value(SequenceState.class)), APPLY_DECISIONS, ACCEPT_TOKENS)
        .addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TOKEN_STORE),
            serdes.key(), serdes.value(TokenRun.class)), APPLY_DECISIONS, ACCEPT_TOKENS)
        // Rebuilt from the sequence store when a task starts, so it needs no changelog.
        .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(LIVE_SEQUENCES_STORE),
            Serdes.String(), Serdes.Long()).withLoggingDisabled(), APPLY_DECISIONS, ACCEPT_TOKENS)
        .addSink(WRITE_RESPONSES, new ReplyTopics(catalogue.name(Topics.RESPONSES)), serdes.key().serializer(),
            values, APPLY_DECISIONS, ACCEPT_TOKENS)
        .addSink(WRITE_STALLS, catalogue.name(Topics.STALLS), serdes.key().serializer(), values, ACCEPT_TOKENS)
        .addSink(WRITE_HOLDS, catalogue.name(Topics.SEQUENCE_HOLDS), serdes.key().serializer(), values,
            APPLY_DECISIONS, ACCEPT_TOKENS)
        // In memory, as heatmap-streams' (HeatmapTopology): on disk it cannot be reopened after a kill -9.
        .addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(INSTANCE_SCORES_GLOBAL_STORE),
                serdes.key(), serdes.value(InstanceScore.class)).withLoggingDisabled(), READ_SCORES,
            serdes.key().deserializer(), new ByteArrayDeserializer(), catalogue.name(Topics.INSTANCE_SCORES),
            KEEP_SCORES, () -> new KeepLatestProcessor<>(INSTANCE_SCORES_GLOBAL_STORE,
                catalogue.name(Topics.INSTANCE_SCORES), serdes.value(Topics.INSTANCE_SCORES).deserializer()));
  }
}
