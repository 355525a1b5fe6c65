package io.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class TelemetryIngestConfigTest {

  @Test
  void shouldScrapeEverySecondWithAHalfSecondTimeoutByDefault() {
    final TelemetryIngestConfig config = TelemetryIngestConfig.fromEnvironment(Map.of());

    assertThat(config.scrapeInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(config.scrapeTimeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(config.scrapeThreads()).isEqualTo(2);
  }

  @Test
  void shouldTakeEachKeyFromItsEnvironmentVariable() {
    final TelemetryIngestConfig config = TelemetryIngestConfig.fromEnvironment(Map.of(
        "ZEROLAYER_TELEMETRY_SCRAPE_INTERVAL_MS", "250", "ZEROLAYER_TELEMETRY_SCRAPE_THREADS", "4"));

    assertThat(config.scrapeInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(config.scrapeThreads()).isEqualTo(4);
  }

  @Test
  void shouldServeOnPort8087AndTakeTelemetryByPushOnlyByDefault() {
    final TelemetryIngestConfig config = TelemetryIngestConfig.fromEnvironment(Map.of());

    assertThat(config.httpPort()).isEqualTo(8087);
    assertThat(config.targetsFile()).isEmpty();
  }

  @Test
  void shouldTakeThePortAndTheTargetsFileFromTheirEnvironmentVariables() {
    final TelemetryIngestConfig config = TelemetryIngestConfig.fromEnvironment(Map.of(
        "ZEROLAYER_TELEMETRY_HTTP_PORT", "0", "ZEROLAYER_TELEMETRY_TARGETS_FILE", "/etc/zerolayer/targets.json"));

    assertThat(config.httpPort()).isZero();
    assertThat(config.targetsFile()).contains(Path.of("/etc/zerolayer/targets.json"));
  }

  @Test
  void shouldTreatABlankTargetsFileAsPushOnly() {
    assertThat(new TelemetryIngestConfig(Map.of(TelemetryIngestConfig.TARGETS_FILE, "  ")).targetsFile()).isEmpty();
  }

  @Test
  void shouldRefuseAPortOutsideTheTcpRange() {
    assertThatThrownBy(() -> new TelemetryIngestConfig(Map.of(TelemetryIngestConfig.HTTP_PORT, 65_536)))
        .isInstanceOf(ConfigException.class);
  }

  @Test
  void shouldRefuseAnIntervalBelow10Ms() {
    assertThatThrownBy(() -> new TelemetryIngestConfig(Map.of(TelemetryIngestConfig.SCRAPE_INTERVAL_MS, 5L)))
        .isInstanceOf(ConfigException.class);
  }
}
