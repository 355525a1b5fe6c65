package io.zerolayer.telemetry;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.telemetry.internal.MetricsFetcher;
import io.zerolayer.telemetry.internal.TargetScrapeTask;
import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Scrapes each target's {@code /metrics} pages every interval and hands each mapped sample to a
 * consumer (the {@link TelemetryPublisher} in production). A target whose scrape fails sends
 * nothing that round and is tried again the next.
 */
public final class TelemetryScraper implements AutoCloseable {

  private final TelemetryIngestConfig config;
  private final List<ScrapeTarget> targets;
  private final Consumer<InstanceTelemetry> sink;
  private final Consumer<ScrapeTarget> failed;
  private final ScheduledExecutorService executor;
  private final MetricsFetcher fetcher;

  public TelemetryScraper(final TelemetryIngestConfig config, final List<ScrapeTarget> targets,
      final Consumer<InstanceTelemetry> sink) {
    this(config, targets, sink, target -> { });
  }

  /**
   * @param failed called for each round of a target that sent no sample, to count them
   */
  public TelemetryScraper(final TelemetryIngestConfig config, final List<ScrapeTarget> targets,
      final Consumer<InstanceTelemetry> sink, final Consumer<ScrapeTarget> failed) {
    this.config = requireNonNull(config, "config");
    this.targets = List.copyOf(requireNonNull(targets, "targets"));
    this.sink = requireNonNull(sink, "sink");
    this.failed = requireNonNull(failed, "failed");
    final AtomicInteger threads = new AtomicInteger();
    this.executor = Executors.newScheduledThreadPool(config.scrapeThreads(), runnable -> {
      final Thread thread = new Thread(runnable, "telemetry-scraper-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    this.fetcher = new MetricsFetcher(
        HttpClient.newBuilder().connectTimeout(config.scrapeTimeout()).build(), config.scrapeTimeout());
  }

  /** Starts scraping every target, the first time at once. */
  public TelemetryScraper start() {
    final long intervalMs = config.scrapeInterval().toMillis();
    for (final ScrapeTarget target : targets) {
      executor.scheduleWithFixedDelay(new TargetScrapeTask(target, fetcher, sink, System::currentTimeMillis,
          () -> failed.accept(target)),
          0, intervalMs, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  @Override
  public void close() throws InterruptedException {
    executor.shutdownNow();
    executor.awaitTermination(config.scrapeTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
  }
}
