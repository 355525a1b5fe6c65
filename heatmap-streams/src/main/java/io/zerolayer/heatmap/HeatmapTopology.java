package io.zerolayer.heatmap;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.LatencyModel;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.heatmap.internal.InstanceScorer;
import io.zerolayer.heatmap.internal.ScoreInstancesProcessor;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;

/** The heatmap topology: telemetry in, one score row per instance and emit interval out. */
public final class HeatmapTopology {

  /** Per instance, its current heatmap row. */
  public static final String INSTANCE_STATE_STORE = "instance-state-store";
  static final String READ_TELEMETRY = "read-telemetry";
  static final String SCORE_INSTANCES = "score-instances";
  static final String WRITE_SCORES = "write-instance-scores";

  private HeatmapTopology() {
  }

  /** Builds the topology; no I/O. */
  public static Topology build(final HeatmapConfig config, final TopicCatalogue catalogue,
      final ContractSerdes serdes, final MeterRegistry meters) {
    requireNonNull(config, "config");
    final InstanceScorer scorer = new InstanceScorer(defaultModel(config));
    final DistributionSummary emitLag = DistributionSummary.builder("zerolayer.heatmap.emit.lag")
        .baseUnit("milliseconds")
        .description("From an instance's telemetry sample to the publication of its heatmap row")
        .publishPercentiles(0.5, 0.99)
        .register(meters);
    final StreamsBuilder builder = new StreamsBuilder();
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(INSTANCE_STATE_STORE),
        serdes.key(), serdes.value(InstanceScore.class)));
    builder.stream(catalogue.name(Topics.TELEMETRY),
            Consumed.with(serdes.key(), serdes.value(Topics.TELEMETRY)).withName(READ_TELEMETRY))
        .process(() -> new ScoreInstancesProcessor(INSTANCE_STATE_STORE, config.emitInterval(), scorer, emitLag),
            Named.as(SCORE_INSTANCES), INSTANCE_STATE_STORE)
        .to(catalogue.name(Topics.INSTANCE_SCORES),
            Produced.with(serdes.key(), serdes.value(Topics.INSTANCE_SCORES)).withName(WRITE_SCORES));
    return builder.build();
  }

  private static LatencyModel defaultModel(final HeatmapConfig config) {
    return LatencyModel.newBuilder()
        .setLatencyInterceptMs(config.defaultLatencyInterceptMs())
        .setLatencyPerInputTokenMs(config.defaultLatencyPerInputTokenMs())
        .setLatencyPerOutputTokenMs(config.defaultLatencyPerOutputTokenMs())
        .setTtftInterceptMs(config.defaultLatencyInterceptMs())
        .setTtftPerInputTokenMs(config.defaultLatencyPerInputTokenMs())
        .setTtftPerOutputTokenMs(0.0)
        .setSamples(0)
        .build();
  }
}
