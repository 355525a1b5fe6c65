package io.zerolayer.heatmap;

import static java.util.Objects.requireNonNull;

import io.cloudevents.kafka.CloudEventSerializer;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceStatus;
import io.zerolayer.contract.avro.LatencyFit;
import io.zerolayer.contract.avro.LatencyModel;
import io.zerolayer.contract.avro.TelemetryHistory;
import io.zerolayer.contract.avro.TelemetrySlice;
import io.zerolayer.contract.avro.ZoneStatus;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.telemetry.TelemetryValidator;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.heatmap.internal.DecodeStepFitter;
import io.zerolayer.heatmap.internal.FitErrors;
import io.zerolayer.heatmap.internal.FitLatencyModelProcessor;
import io.zerolayer.heatmap.internal.HeatmapOutputs;
import io.zerolayer.heatmap.internal.HeatmapStores;
import io.zerolayer.heatmap.internal.LatencyFitter;
import io.zerolayer.heatmap.internal.ScoreInstancesProcessor;
import io.zerolayer.heatmap.internal.ScoringSettings;
import io.zerolayer.heatmap.internal.ValidateTelemetryProcessor;
import io.zerolayer.runtime.KeepLatestProcessor;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The heatmap topology: telemetry and completions in; per emit interval the changed heatmap
 * rows, status CloudEvents and {@code PRE_CLEAR} commands out. Every published row is also read
 * back into a global store, from which zone health is judged.
 */
public final class HeatmapTopology {

  /** Per instance: latest sample, smoothed metrics, state machine, current row. */
  public static final String INSTANCE_STATE_STORE = "instance-state-store";
  /** Short-window slices of raw samples. */
  public static final String TELEMETRY_WINDOW_STORE = "telemetry-window-store";
  /** History windows: mean, max, t-digest per metric. */
  public static final String TELEMETRY_HISTORY_STORE = "telemetry-history-store";
  public static final String LATENCY_MODEL_STORE = "latency-model-store";
  public static final String ZONE_STATE_STORE = "zone-state-store";
  /** Every published row, on every instance of the app. */
  public static final String INSTANCE_SCORES_GLOBAL_STORE = "instance-scores-global-store";
  /** What each logged store writes to its changelog: its schema is read ahead when the app starts. */
  public static final Map<String, Class<? extends SpecificRecord>> CHANGELOG_VALUES = Map.of(
      INSTANCE_STATE_STORE, InstanceStatus.class, TELEMETRY_WINDOW_STORE, TelemetrySlice.class,
      TELEMETRY_HISTORY_STORE, TelemetryHistory.class, LATENCY_MODEL_STORE, LatencyFit.class,
      ZONE_STATE_STORE, ZoneStatus.class);
  static final String READ_TELEMETRY = "read-telemetry";
  static final String VALIDATE_TELEMETRY = "validate-telemetry";
  static final String SCORE_INSTANCES = "score-instances";
  static final String READ_COMPLETIONS = "read-completions";
  static final String FIT_LATENCY_MODEL = "fit-latency-model";
  static final String READ_SCORES = "read-instance-scores";
  static final String KEEP_SCORES = "keep-instance-scores";

  static final HeatmapStores STORES = new HeatmapStores(INSTANCE_STATE_STORE, TELEMETRY_WINDOW_STORE,
      TELEMETRY_HISTORY_STORE, LATENCY_MODEL_STORE, ZONE_STATE_STORE, INSTANCE_SCORES_GLOBAL_STORE);

  private HeatmapTopology() {
  }

  /** Builds the topology for the catalogue's partition count of the telemetry topic; no I/O. */
  public static Topology build(final HeatmapConfig config, final TopicCatalogue catalogue,
      final ContractSerdes serdes, final MeterRegistry meters) {
    return build(config, catalogue, serdes, meters, Topics.TELEMETRY.partitions());
  }

  /**
   * Builds the topology; no I/O.
   *
   * @param telemetryPartitions partitions of the telemetry topic: the task of partition
   *     {@code hash(zone) % telemetryPartitions} reports that zone's transitions
   */
  public static Topology build(final HeatmapConfig config, final TopicCatalogue catalogue,
      final ContractSerdes serdes, final MeterRegistry meters, final int telemetryPartitions) {
    requireNonNull(config, "config");
    final LatencyFitter fitter = fitter(config);
    final FitErrors fitErrors = new FitErrors(meters);
    final DecodeStepFitter decodeFitter = decodeFitter(config);
    final ScoringSettings settings = settings(config, telemetryPartitions);
    final DistributionSummary emitLag = DistributionSummary.builder("zerolayer.heatmap.emit.lag")
        .baseUnit("milliseconds")
        .description("From an instance's telemetry sample to the publication of its heatmap row")
        .publishPercentiles(0.5, 0.99)
        .register(meters);
    final TelemetryValidator validator = new TelemetryValidator(config.millis(HeatmapConfig.MAX_CLOCK_SKEW_MS));
    final Topology topology = new Topology();
    topology.addSource(READ_TELEMETRY, serdes.key().deserializer(),
            serdes.value(Topics.TELEMETRY).deserializer(), catalogue.name(Topics.TELEMETRY))
        .addProcessor(VALIDATE_TELEMETRY, () -> new ValidateTelemetryProcessor(validator), READ_TELEMETRY)
        .addProcessor(SCORE_INSTANCES, () -> new ScoreInstancesProcessor(STORES, settings, fitter, decodeFitter,
            emitLag),
            VALIDATE_TELEMETRY)
        .addSource(READ_COMPLETIONS, serdes.key().deserializer(), serdes.value(Topics.COMPLETIONS).deserializer(),
            catalogue.name(Topics.COMPLETIONS))
        .addProcessor(FIT_LATENCY_MODEL, () -> new FitLatencyModelProcessor(LATENCY_MODEL_STORE, fitter, fitErrors),
            READ_COMPLETIONS);
    addStores(topology, config, serdes);
    addSinks(topology, catalogue, serdes);
    // In memory: one row per instance, read back from the compacted topic at each start. On disk,
    // Kafka Streams 4.3 under exactly-once cannot reopen it after a kill -9 and stops the app at
    // every restart (KAFKA-21034).
    topology.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(INSTANCE_SCORES_GLOBAL_STORE),
            serdes.key(), serdes.value(InstanceScore.class)).withLoggingDisabled(), READ_SCORES,
        serdes.key().deserializer(), new ByteArrayDeserializer(), catalogue.name(Topics.INSTANCE_SCORES), KEEP_SCORES,
        () -> new KeepLatestProcessor<>(INSTANCE_SCORES_GLOBAL_STORE, catalogue.name(Topics.INSTANCE_SCORES),
            serdes.value(Topics.INSTANCE_SCORES).deserializer()));
    return topology;
  }

  /**
   * The stores written on every sample are cached, so a key written many times between two
   * commits reaches RocksDB and its changelog once ({@link HeatmapConfig#CACHE_MAX_BYTES}).
   */
  private static void addStores(final Topology topology, final HeatmapConfig config, final ContractSerdes serdes) {
    topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(INSTANCE_STATE_STORE),
        serdes.key(), serdes.value(InstanceStatus.class)).withCachingEnabled(), SCORE_INSTANCES);
    topology.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore(TELEMETRY_WINDOW_STORE,
            config.millis(HeatmapConfig.WINDOW_RETENTION_MS), config.millis(HeatmapConfig.WINDOW_ADVANCE_MS), false),
        serdes.key(), serdes.value(TelemetrySlice.class)).withCachingEnabled(), SCORE_INSTANCES);
    topology.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore(TELEMETRY_HISTORY_STORE,
            config.millis(HeatmapConfig.HISTORY_RETENTION_MS), config.millis(HeatmapConfig.HISTORY_WINDOW_MS), false),
        serdes.key(), serdes.value(TelemetryHistory.class)).withCachingEnabled(), SCORE_INSTANCES);
    topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(LATENCY_MODEL_STORE),
        serdes.key(), serdes.value(LatencyFit.class)), SCORE_INSTANCES, FIT_LATENCY_MODEL);
    topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ZONE_STATE_STORE),
        serdes.key(), serdes.value(ZoneStatus.class)), SCORE_INSTANCES);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void addSinks(final Topology topology, final TopicCatalogue catalogue, final ContractSerdes serdes) {
    // The scoring processor forwards rows, events and commands to these children by name.
    topology.addSink(HeatmapOutputs.WRITE_SCORES, catalogue.name(Topics.INSTANCE_SCORES), serdes.key().serializer(),
        (Serializer) serdes.value(Topics.INSTANCE_SCORES).serializer(), SCORE_INSTANCES);
    topology.addSink(HeatmapOutputs.WRITE_STATUS_EVENTS, catalogue.name(Topics.STATUS_CHANGED),
        serdes.key().serializer(), (Serializer) new CloudEventSerializer(), SCORE_INSTANCES);
    topology.addSink(HeatmapOutputs.WRITE_COMMANDS, catalogue.name(Topics.COMMANDS), serdes.key().serializer(),
        (Serializer) serdes.value(Topics.COMMANDS).serializer(), SCORE_INSTANCES);
  }

  static LatencyFitter fitter(final HeatmapConfig config) {
    return new LatencyFitter(config.getLong(HeatmapConfig.LATENCY_HALF_LIFE_MS),
        config.getLong(HeatmapConfig.LATENCY_MIN_SAMPLES), defaultModel(config));
  }

  static DecodeStepFitter decodeFitter(final HeatmapConfig config) {
    return new DecodeStepFitter(config.getLong(HeatmapConfig.LATENCY_HALF_LIFE_MS));
  }

  static ScoringSettings settings(final HeatmapConfig config, final int telemetryPartitions) {
    return new ScoringSettings(config.emitInterval(),
        config.millis(HeatmapConfig.WINDOW_SIZE_MS), config.millis(HeatmapConfig.WINDOW_ADVANCE_MS),
        config.millis(HeatmapConfig.HISTORY_WINDOW_MS), config.timings(),
        config.getLong(HeatmapConfig.SMOOTHING_HALF_LIFE_MS), config.getDouble(HeatmapConfig.ZONE_PENALTY_FACTOR),
        telemetryPartitions, config.getLong(HeatmapConfig.FORGET_AFTER_MS));
  }

  private static LatencyModel defaultModel(final HeatmapConfig config) {
    return LatencyModel.newBuilder()
        .setLatencyInterceptMs(config.getDouble(HeatmapConfig.DEFAULT_LATENCY_INTERCEPT_MS))
        .setLatencyPerInputTokenMs(config.getDouble(HeatmapConfig.DEFAULT_LATENCY_PER_INPUT_TOKEN_MS))
        .setLatencyPerOutputTokenMs(config.getDouble(HeatmapConfig.DEFAULT_LATENCY_PER_OUTPUT_TOKEN_MS))
        .setTtftInterceptMs(config.getDouble(HeatmapConfig.DEFAULT_LATENCY_INTERCEPT_MS))
        .setTtftPerInputTokenMs(config.getDouble(HeatmapConfig.DEFAULT_LATENCY_PER_INPUT_TOKEN_MS))
        .setTtftPerOutputTokenMs(0.0)
        .setSamples(0)
        .build();
  }
}
