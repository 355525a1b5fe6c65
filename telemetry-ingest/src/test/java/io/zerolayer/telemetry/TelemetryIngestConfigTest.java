package io.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
  void shouldRefuseAnIntervalBelow10Ms() {
    assertThatThrownBy(() -> new TelemetryIngestConfig(Map.of(TelemetryIngestConfig.SCRAPE_INTERVAL_MS, 5L)))
        .isInstanceOf(ConfigException.class);
  }
}
