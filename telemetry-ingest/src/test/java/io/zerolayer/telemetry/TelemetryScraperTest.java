package io.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.javalin.Javalin;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.telemetry.RunningRequestsPage;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class TelemetryScraperTest {

  private static final TelemetryIngestConfig EVERY_50_MS = new TelemetryIngestConfig(Map.of(
      TelemetryIngestConfig.SCRAPE_INTERVAL_MS, 50L, TelemetryIngestConfig.SCRAPE_TIMEOUT_MS, 2000L));

  private final List<InstanceTelemetry> samples = new CopyOnWriteArrayList<>();
  private final AtomicBoolean engineHealthy = new AtomicBoolean(true);
  private final AtomicReference<String> acceptHeader = new AtomicReference<>();
  private final AtomicReference<Map<String, Integer>> running = new AtomicReference<>(Map.of());
  private Javalin exporters;

  @BeforeEach
  void startExporters() {
    exporters = Javalin.create(config -> config.showJavalinBanner = false)
        .get("/metrics", ctx -> {
          acceptHeader.set(ctx.header("Accept"));
          if (engineHealthy.get()) {
            ctx.contentType("text/plain; version=0.0.4").result(MetricsSamples.text(MetricsSamples.VLLM_V1));
          } else {
            ctx.status(503).result("engine starting");
          }
        })
        .get("/dcgm/metrics", ctx -> ctx.result(MetricsSamples.text(MetricsSamples.DCGM_A100_MIG)))
        .get("/node/metrics", ctx -> ctx.result(MetricsSamples.text(MetricsSamples.NODE_NETSTAT)))
        .get(RunningRequestsPage.PATH, ctx -> ctx.result(RunningRequestsPage.render(running.get())))
        .start("127.0.0.1", 0);
  }

  @AfterEach
  void stopExporters() {
    exporters.stop();
  }

  @Test
  void shouldScrapeATargetsPagesEveryIntervalAndHandOnEachMappedSample() throws Exception {
    final ScrapeTarget target = ScrapeTarget.of("gpu-1", "zone-a", uri("/metrics"))
        .withGpuMetrics(uri("/dcgm/metrics")).withHostMetrics(uri("/node/metrics"));

    try (TelemetryScraper scraper = new TelemetryScraper(EVERY_50_MS, List.of(target), samples::add).start()) {
      await().atMost(Duration.ofSeconds(10)).until(() -> samples.size() >= 2);
    }

    final InstanceTelemetry first = samples.get(0);
    assertThat(first.getInstanceId()).isEqualTo("gpu-1");
    assertThat(first.getZone()).isEqualTo("zone-a");
    assertThat(first.getModel()).isEqualTo("deepseek-v4-flash-vision-exp-ablit-dual");
    assertThat(first.getGpuUtilization()).isEqualTo(0.995630);
    assertThat(first.getTcpRetransmitRate()).isEqualTo(227.0 / 54_915_039.0);
    assertThat(first.getDecodeTokensPerS()).isEqualTo(44_969 / 1419.8547863351414);
    // The pages did not change, so the second window saw no tokens, lookups or segments.
    final InstanceTelemetry second = samples.get(1);
    assertThat(second.getDecodeTokensPerS()).isZero();
    assertThat(second.getKvCacheHitRate()).isZero();
    assertThat(second.getTcpRetransmitRate()).isZero();
    assertThat(second.getSampleTimeMs()).isGreaterThanOrEqualTo(first.getSampleTimeMs());
    assertThat(acceptHeader.get()).isEqualTo("text/plain; version=0.0.4");
  }

  @Test
  void shouldCarryWhatTheWorkersPageSaysEachRequestRunningOnTheServerMayStillGenerate() throws Exception {
    final ScrapeTarget target = ScrapeTarget.of("gpu-3", "zone-a", uri("/metrics"))
        .withWorkerRunning(uri(RunningRequestsPage.PATH));
    running.set(Map.of("s-1", 300, "s-2", 12));

    try (TelemetryScraper scraper = new TelemetryScraper(EVERY_50_MS, List.of(target), samples::add).start()) {
      await().atMost(Duration.ofSeconds(10)).until(() -> !samples.isEmpty());
      assertThat(samples.get(0).getRunningTokensToLimit()).containsExactlyInAnyOrder(300, 12);

      // When both requests end, a later sample says nothing runs through the worker
      running.set(Map.of());
      final int before = samples.size();
      await().atMost(Duration.ofSeconds(10)).until(() -> samples.size() > before + 1);
    }
    assertThat(samples.get(samples.size() - 1).getRunningTokensToLimit()).isEmpty();
  }

  @Test
  void shouldSendNothingWhileTheServerFailsAndResumeOnceItAnswers() throws Exception {
    engineHealthy.set(false);
    final ScrapeTarget target = ScrapeTarget.of("gpu-2", "zone-a", uri("/metrics"));
    final List<ScrapeTarget> failedRounds = new CopyOnWriteArrayList<>();

    try (TelemetryScraper scraper =
        new TelemetryScraper(EVERY_50_MS, List.of(target), samples::add, failedRounds::add).start()) {
      await().atMost(Duration.ofSeconds(10)).until(() -> failedRounds.size() >= 3);
      assertThat(samples).isEmpty();
      assertThat(failedRounds).containsOnly(target);

      engineHealthy.set(true);
      await().atMost(Duration.ofSeconds(10)).until(() -> !samples.isEmpty());
    }

    assertThat(samples.get(0).getInstanceId()).isEqualTo("gpu-2");
  }

  private URI uri(final String path) {
    return URI.create("http://127.0.0.1:" + exporters.port() + path);
  }
}
