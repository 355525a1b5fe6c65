package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.DistributionSummary;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.InstanceStatus;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.avro.LatencyFit;
import io.zerolayer.runtime.LateReads;
import java.util.Map;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Feeds each sample to the instance's windows, smoothed metrics and state machine; on a
 * wall-clock schedule, applies staleness and zone penalties and publishes the rows that changed,
 * so the score topic gets one record per instance and interval, not one per sample. A sample
 * that takes an instance out of service, shows it restarted cold or asks for its streams to move
 * ({@link InstanceRows#urgent}) is published and committed at once as well: waiting for the
 * schedule or the commit interval would leave routers sending it work for that much longer.
 * Forwards rows, status events and commands to the children named in {@link HeatmapOutputs}.
 */
public final class ScoreInstancesProcessor implements Processor<String, InstanceTelemetry, String, Object> {

  /**
   * A punctuation this much later than due means the heatmap itself did not run (a pause of its
   * JVM, a starved thread): the silence it would then see is its own.
   */
  private static final long OWN_PAUSE_MS = 250;

  private final HeatmapStores names;
  private final ScoringSettings settings;
  private final LatencyFitter fitter;
  private final DecodeStepFitter decodeFitter;
  private final DistributionSummary emitLag;
  private final InstanceMachine machine;
  private final Ewma ewma;
  /** Samples read 250 ms or more after they were sent, none fresher for as long: the heatmap is behind. */
  private final LateReads lateReads = new LateReads(250, 250, 250);
  private HeatmapOutputs outputs;
  private InstanceStatuses statuses;
  private KeyValueStore<String, LatencyFit> fits;
  private TelemetryWindows windows;
  private ZoneReporter zones;
  /** Since when this task has watched without pausing: silence before it is not judged. */
  private long watchingSinceMs;
  private long lastEmitMs;

  public ScoreInstancesProcessor(final HeatmapStores names, final ScoringSettings settings,
      final LatencyFitter fitter, final DecodeStepFitter decodeFitter, final DistributionSummary emitLag) {
    this.names = requireNonNull(names, "names");
    this.settings = requireNonNull(settings, "settings");
    this.fitter = requireNonNull(fitter, "fitter");
    this.decodeFitter = requireNonNull(decodeFitter, "decodeFitter");
    this.emitLag = requireNonNull(emitLag, "emitLag");
    this.machine = new InstanceMachine(settings.timings());
    this.ewma = new Ewma(settings.smoothingHalfLifeMs());
  }

  @Override
  public void init(final ProcessorContext<String, Object> context) {
    outputs = new HeatmapOutputs(context, new StatusEvents());
    statuses = new InstanceStatuses(context.getStateStore(names.instanceState()));
    fits = context.getStateStore(names.latencyModel());
    windows = new TelemetryWindows(context.getStateStore(names.slices()), context.getStateStore(names.history()),
        settings.windowSize(), settings.windowAdvance(), settings.historyWindow());
    zones = new ZoneReporter(context.getStateStore(names.zoneState()), context.getStateStore(names.scoresGlobal()),
        context.taskId().partition(), settings.partitions());
    watchingSinceMs = context.currentSystemTimeMs();
    context.schedule(settings.emitInterval(), PunctuationType.WALL_CLOCK_TIME, this::tick);
  }

  @Override
  public void process(final Record<String, InstanceTelemetry> record) {
    final InstanceTelemetry sample = record.value();
    final String id = record.key();
    final double[] values = Metric.all(sample);
    final InstanceStatus status = statuses.get(id);
    windows.add(id, values, sample.getSampleTimeMs(), status == null ? -1 : status.getLatest().getSampleTimeMs());
    if (status != null && status.getLatest().getSampleTimeMs() > sample.getSampleTimeMs()) {
      return;
    }
    final long nowMs = outputs.now();
    lateReads.read(record.timestamp(), nowMs);
    final WindowStats window = windows.current(id, sample.getSampleTimeMs());
    final double[] smoothed = ewma.next(status == null ? null : toArray(status),
        status == null ? 0 : sample.getSampleTimeMs() - status.getLatest().getSampleTimeMs(), values);
    final Signals signals = new Signals(sample.getVramFragmentation(), window.max(Metric.VRAM_FRAGMENTATION),
        window.mean(Metric.GPU_UTILIZATION), window.mean(Metric.TOKEN_INTERVAL_STDDEV_MS),
        smoothed[Metric.TCP_RETRANSMIT_RATE.ordinal()], sample.getTcpRetransmitRate(), sample.getKvWarmupLevel());
    final Assessment assessment = machine.onSample(id, sample.getZone(), InstanceRows.machine(status), signals, nowMs);
    outputs.publish(id, assessment);
    final double zoneFactor = status != null && status.getRow() != null && status.getRow().getZonePenalised()
        ? settings.zonePenaltyFactor() : 1.0;
    // The latency model is refitted where the row is published (each emission), not per sample.
    final InstanceScore row = InstanceRows.row(sample, signals, smoothed, assessment.machine(),
        status == null ? fitter.model(null) : status.getRow().getLatencyModel(), zoneFactor,
        status == null ? null : status.getRow(), nowMs);
    if (status != null && InstanceRows.urgent(status.getRow(), row)) {
      publish(id, row, nowMs, true);
    }
    statuses.put(id, InstanceRows.remember(InstanceStatus.newBuilder(), assessment.machine())
        .setLatest(sample).setLastSeenMs(nowMs).setEwma(toList(smoothed)).setRow(row)
        .setDecodeFit(decodeFitter.add(status == null ? null : status.getDecodeFit(), sample.getRunningRequests(),
            sample.getDecodeTokensPerS(), sample.getSampleTimeMs()))
        // Later than the last emission even within its millisecond, so the next one publishes it.
        .setChangedAtMs(Math.max(nowMs, lastEmitMs + 1))
        .build());
  }

  private void tick(final long nowMs) {
    final boolean late = lateReads.late(nowMs);
    if (lastEmitMs > 0 && nowMs - lastEmitMs > settings.emitInterval().toMillis() + OWN_PAUSE_MS) {
      watchingSinceMs = nowMs;
    }
    final var verdicts = zones.assess(nowMs, outputs);
    for (final Map.Entry<String, InstanceStatus> entry : statuses.all()) {
      final String id = entry.getKey();
      final InstanceStatus status = entry.getValue();
      final InstanceScore row = status.getRow();
      final Assessment assessment = machine.onTick(id, row.getZone(), InstanceRows.machine(status),
          Math.max(status.getLastSeenMs(), watchingSinceMs), InstanceRows.signals(row), nowMs, late);
      outputs.publish(id, assessment);
      final InstanceState state = assessment.machine().state();
      if (state == InstanceState.EJECTED || state == InstanceState.SUSPECT) {
        windows.foldSilent(id, status.getLatest().getSampleTimeMs(), nowMs);
        if (nowMs - status.getLastSeenMs() > settings.forgetAfterMs()) {
          forget(id);
          continue;
        }
      }
      final var verdict = verdicts.get(row.getZone());
      final boolean penalised = verdict != null && verdict.penalised();
      if (assessment.transition() == null && status.getChangedAtMs() <= lastEmitMs
          && penalised == row.getZonePenalised()) {
        continue;
      }
      final InstanceScore next = InstanceRows.row(status.getLatest(), InstanceRows.signals(row),
          toArray(status), assessment.machine(),
          decodeFitter.withDecodeStep(fitter.model(fits.get(id)), status.getDecodeFit()),
          penalised ? settings.zonePenaltyFactor() : 1.0, row, nowMs);
      statuses.put(id, InstanceRows.remember(InstanceStatus.newBuilder(status), assessment.machine()).setRow(next)
          .build());
      publish(id, next, nowMs, InstanceRows.urgent(row, next));
    }
    lastEmitMs = nowMs;
  }

  /** @param urgent whether routers must see the row at once ({@link InstanceRows#urgent}) */
  private void publish(final String instanceId, final InstanceScore row, final long nowMs, final boolean urgent) {
    if (urgent) {
      outputs.urgentRow(instanceId, row);
    } else {
      outputs.row(instanceId, row);
    }
    emitLag.record(Math.max(0, nowMs - row.getLastTelemetryMs()));
  }

  /** An instance silent for longer than its history is kept leaves every store and the heatmap. */
  private void forget(final String instanceId) {
    statuses.delete(instanceId);
    windows.forget(instanceId);
    fits.delete(instanceId);
    outputs.tombstone(instanceId, outputs.now());
  }

  private static double[] toArray(final InstanceStatus status) {
    return status.getEwma().stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static java.util.List<Double> toList(final double[] values) {
    return java.util.Arrays.stream(values).boxed().toList();
  }
}
