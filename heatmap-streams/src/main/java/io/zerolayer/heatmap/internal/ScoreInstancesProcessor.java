package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.DistributionSummary;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceTelemetry;
import java.time.Duration;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps each instance's row up to date in the store on every sample, and publishes the rows
 * that changed since the last emission on a wall-clock schedule, so the score topic gets one
 * record per instance and interval, not one per sample.
 */
public final class ScoreInstancesProcessor implements Processor<String, InstanceTelemetry, String, InstanceScore> {

  private final String storeName;
  private final Duration emitInterval;
  private final InstanceScorer scorer;
  private final DistributionSummary emitLag;
  private ProcessorContext<String, InstanceScore> context;
  private KeyValueStore<String, InstanceScore> rows;
  private long lastEmitMs;

  /**
   * @param emitLag records, per emitted row, the ms from its telemetry sample to its emission
   */
  public ScoreInstancesProcessor(final String storeName, final Duration emitInterval, final InstanceScorer scorer,
      final DistributionSummary emitLag) {
    this.storeName = requireNonNull(storeName, "storeName");
    this.emitInterval = requireNonNull(emitInterval, "emitInterval");
    this.scorer = requireNonNull(scorer, "scorer");
    this.emitLag = requireNonNull(emitLag, "emitLag");
  }

  @Override
  public void init(final ProcessorContext<String, InstanceScore> context) {
    this.context = context;
    this.rows = context.getStateStore(storeName);
    context.schedule(emitInterval, PunctuationType.WALL_CLOCK_TIME, this::emitChanged);
  }

  @Override
  public void process(final Record<String, InstanceTelemetry> record) {
    final InstanceTelemetry sample = record.value();
    if (sample == null || record.key() == null) {
      return;
    }
    final InstanceScore previous = rows.get(record.key());
    if (previous != null && previous.getLastTelemetryMs() > sample.getSampleTimeMs()) {
      return;
    }
    rows.put(record.key(), scorer.score(sample, previous, context.currentSystemTimeMs()));
  }

  private void emitChanged(final long nowMs) {
    try (KeyValueIterator<String, InstanceScore> all = rows.all()) {
      while (all.hasNext()) {
        final KeyValue<String, InstanceScore> row = all.next();
        if (row.value.getUpdatedAtMs() > lastEmitMs) {
          context.forward(new Record<>(row.key, row.value, nowMs));
          emitLag.record(Math.max(0, nowMs - row.value.getLastTelemetryMs()));
        }
      }
    }
    lastEmitMs = nowMs;
  }
}
