package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.telemetry.ScrapeTarget;
import io.zerolayer.telemetry.TelemetryFields;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Turns one round of scrapes of a target into a telemetry sample, keeping the target's previous
 * counters so that rates describe the time between two scrapes. Fields the pages cannot give
 * keep the neutral values of {@link TelemetryFields}; the result names them. One mapper per
 * target, called by one task at a time.
 */
public final class TelemetryMapper {

  private final ScrapeTarget target;
  private final ScrapeBaseline baseline = new ScrapeBaseline();

  public TelemetryMapper(final ScrapeTarget target) {
    this.target = requireNonNull(target, "target");
  }

  /**
   * @throws IllegalArgumentException when the engine page is neither vLLM's nor SGLang's
   * @throws io.zerolayer.telemetry.prometheus.PrometheusParseException when a histogram it
   *     reads is malformed
   * @throws IllegalArgumentException when the worker's page gives a count that is not a whole
   *     number of tokens
   */
  public MappedTelemetry map(final TargetScrapes scrapes, final long sampleTimeMs) {
    requireNonNull(scrapes, "scrapes");
    final EngineReading engine = EngineReaders.read(scrapes.engine());
    final GpuReading gpu = scrapes.gpu().map(page -> DcgmReader.read(page, target.gpus())).orElse(GpuReading.none());
    final Optional<DecodeCounters> decode = baseline.decodeWindow(engine.decode());
    final Optional<CacheCounts> prefixCache = baseline.prefixCacheWindow(engine.prefixCache());
    final Optional<TcpCounters> tcp = baseline.tcpWindow(scrapes.host().flatMap(NetstatReader::read));

    final String model = target.model().or(engine::model).orElse(TelemetryFields.UNKNOWN_MODEL);
    final InstanceTelemetry.Builder sample =
        TelemetryFields.neutral(target.instanceId(), target.zone(), model, sampleTimeMs);
    final ObservedFields fields = new ObservedFields();
    fields.value("gpuUtilization", gpu.utilization(), sample::setGpuUtilization);
    fields.bytes("vramUsedBytes", gpu.vramUsedBytes(), sample::setVramUsedBytes);
    fields.value("kvCacheHitRate", hitRate(engine, prefixCache), sample::setKvCacheHitRate);
    fields.value("tcpRetransmitRate", tcp.map(TcpCounters::retransmitRate).orElse(OptionalDouble.empty()),
        sample::setTcpRetransmitRate);
    fields.count("queueLength", engine.queueLength(), sample::setQueueLength);
    fields.count("runningRequests", engine.runningRequests(), sample::setRunningRequests);
    fields.value("decodeTokensPerS", decode.map(DecodeCounters::tokensPerSecond).orElse(OptionalDouble.empty()),
        sample::setDecodeTokensPerS);
    fields.value("tokenIntervalStddevMs",
        decode.map(window -> TokenIntervalSpread.stddevMs(window.intervals())).orElse(OptionalDouble.empty()),
        sample::setTokenIntervalStddevMs);
    fields.list("runningTokensToLimit", scrapes.worker().map(RunningRequestsReader::tokensToLimit),
        sample::setRunningTokensToLimit);
    return new MappedTelemetry(sample.build(), fields.neutral());
  }

  private static OptionalDouble hitRate(final EngineReading engine, final Optional<CacheCounts> window) {
    final OptionalDouble fromCounters = window.map(CacheCounts::hitRate).orElse(OptionalDouble.empty());
    return fromCounters.isPresent() ? fromCounters : engine.prefixHitRate();
  }
}
