package io.zerolayer.telemetry;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.telemetry.TelemetryValidator;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import io.zerolayer.telemetry.internal.IngestMeters.Source;
import io.zerolayer.telemetry.internal.IngestMeters;
import io.zerolayer.telemetry.internal.PublishingSink;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * telemetry-ingest as its own process: settings from the environment, runs until stopped. Its
 * HTTP server ({@code telemetry.http.port}) answers {@code /metrics}, {@code /health} and the
 * push endpoint ({@link TelemetryPushEndpoint}); it scrapes the instances listed in
 * {@code telemetry.targets.file} ({@link ScrapeTargetsFile}), if any. Both publish to the
 * telemetry topic through one {@link TelemetryPublisher}.
 */
public final class TelemetryIngestApp implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TelemetryIngestApp.class);

  private final ContractSerdes serdes;
  private final TelemetryPublisher publisher;
  private final MetricsServer server;
  private final Optional<TelemetryScraper> scraper;

  private TelemetryIngestApp(final ContractSerdes serdes, final TelemetryPublisher publisher,
      final MetricsServer server, final Optional<TelemetryScraper> scraper) {
    this.serdes = serdes;
    this.publisher = publisher;
    this.server = server;
    this.scraper = scraper;
  }

  /**
   * Reads the targets and push credentials files, then starts the publisher, the HTTP server and
   * the scraper.
   *
   * @param host the address to serve on: 127.0.0.1, or 0.0.0.0 for all interfaces
   * @throws IllegalArgumentException when either file is bad; nothing is left running
   */
  public static TelemetryIngestApp start(final ClusterSettings cluster, final TelemetryIngestConfig config,
      final String host) {
    requireNonNull(cluster, "cluster");
    requireNonNull(config, "config");
    requireNonNull(host, "host");
    final List<ScrapeTarget> targets = config.targetsFile().map(ScrapeTargetsFile::read).orElse(List.of());
    final PushCredentials pushers = config.pushCredentials();
    final IngestMeters meters = new IngestMeters(targets.stream().map(ScrapeTarget::instanceId).toList());
    final ContractSerdes serdes = new ContractSerdes(cluster.serdes());
    final TelemetryPublisher publisher = new TelemetryPublisher(cluster, serdes);
    // The publisher's tolerance: a sample the endpoint takes is one the publisher takes.
    final TelemetryValidator validator = new TelemetryValidator(TelemetryPublisher.MAX_CLOCK_SKEW);
    final TelemetryPushEndpoint push = new TelemetryPushEndpoint(validator, pushers,
        new PublishingSink(publisher, meters, Source.PUSH), System::currentTimeMillis,
        () -> meters.rejected(Source.PUSH));
    final MetricsServer server = new MetricsServer("telemetry-ingest", push::register);
    meters.bindTo(server.registry());
    try {
      server.start(host, config.httpPort());
    } catch (final RuntimeException e) {
      server.close();
      publisher.close();
      serdes.close();
      throw e;
    }
    final Optional<TelemetryScraper> scraper = targets.isEmpty() ? Optional.empty()
        : Optional.of(new TelemetryScraper(config, targets, new PublishingSink(publisher, meters, Source.SCRAPE),
            target -> meters.scrapeFailed(target.instanceId())).start());
    LOG.info("telemetry-ingest serving on port {}: push at {}, scraping {} target(s){}", server.port(),
        TelemetryPushEndpoint.PATH, targets.size(), config.targetsFile().map(file -> " from " + file).orElse(""));
    return new TelemetryIngestApp(serdes, publisher, server, scraper);
  }

  /** The port of the HTTP server. */
  public int port() {
    return server.port();
  }

  /** Stops scraping and taking pushes, then sends what is still buffered. */
  @Override
  public void close() throws InterruptedException {
    if (scraper.isPresent()) {
      scraper.get().close();
    }
    server.close();
    publisher.close();
    serdes.close();
  }

  public static void main(final String[] args) throws InterruptedException {
    final TelemetryIngestConfig config = TelemetryIngestConfig.fromEnvironment(System.getenv());
    ShutdownSignal.awaitThenClose("telemetry-ingest", start(ClusterSettings.fromEnvironment(System.getenv()),
        config, config.httpHost()));
  }
}
