package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.telemetry.ScrapeTarget;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scrape of one target: fetch its pages, map them, hand the sample on. A failed scrape sends
 * nothing, so the heatmap sees the instance go quiet rather than a made-up sample.
 */
public final class TargetScrapeTask implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(TargetScrapeTask.class);

  private final ScrapeTarget target;
  private final MetricsFetcher fetcher;
  private final Consumer<InstanceTelemetry> sink;
  private final LongSupplier clockMs;
  private final TelemetryMapper mapper;
  private final Runnable failed;
  private Set<String> reportedNeutral;
  private boolean failing;

  /**
   * @param failed called for each round that sends no sample
   */
  public TargetScrapeTask(final ScrapeTarget target, final MetricsFetcher fetcher,
      final Consumer<InstanceTelemetry> sink, final LongSupplier clockMs, final Runnable failed) {
    this.target = requireNonNull(target, "target");
    this.fetcher = requireNonNull(fetcher, "fetcher");
    this.sink = requireNonNull(sink, "sink");
    this.clockMs = requireNonNull(clockMs, "clockMs");
    this.mapper = new TelemetryMapper(target);
    this.failed = requireNonNull(failed, "failed");
  }

  @Override
  public void run() {
    try {
      final TargetScrapes scrapes = new TargetScrapes(fetcher.fetch(target.engineMetrics()),
          fetchOptional(target.gpuMetrics()), fetchOptional(target.hostMetrics()),
          fetchOptional(target.workerRunning()));
      final MappedTelemetry mapped = mapper.map(scrapes, clockMs.getAsLong());
      reportNeutral(mapped.neutralFields());
      sink.accept(mapped.telemetry());
      failing = false;
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (final IOException | RuntimeException e) {
      // A scheduled task that throws is never run again: every failure must end here.
      failed.run();
      if (!failing) {
        LOG.warn("Instance {}: no telemetry this round: {}", target.instanceId(), e.toString());
      }
      failing = true;
    }
  }

  private void reportNeutral(final Set<String> neutral) {
    // Once at INFO; afterwards the set follows activity (an idle window has no token intervals).
    if (reportedNeutral == null) {
      LOG.info("Instance {}: sent as neutral values, not observable from its endpoints: {}", target.instanceId(),
          neutral);
    } else if (!neutral.equals(reportedNeutral)) {
      LOG.debug("Instance {}: now sent as neutral values: {}", target.instanceId(), neutral);
    }
    reportedNeutral = neutral;
  }

  private Optional<Scrape> fetchOptional(final Optional<URI> uri) throws IOException, InterruptedException {
    return uri.isPresent() ? Optional.of(fetcher.fetch(uri.get())) : Optional.empty();
  }
}
