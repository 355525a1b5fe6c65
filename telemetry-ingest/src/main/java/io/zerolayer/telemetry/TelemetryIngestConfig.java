package io.zerolayer.telemetry;

import io.zerolayer.runtime.EnvironmentConfig;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Telemetry-ingest settings; each key can also come from its {@code ZEROLAYER_...} variable. */
public final class TelemetryIngestConfig extends AbstractConfig {

  public static final String SCRAPE_INTERVAL_MS = "telemetry.scrape.interval.ms";
  public static final String SCRAPE_TIMEOUT_MS = "telemetry.scrape.timeout.ms";
  public static final String SCRAPE_THREADS = "telemetry.scrape.threads";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(SCRAPE_INTERVAL_MS, Type.LONG, 1000L, Range.atLeast(10L), Importance.HIGH,
          "Time from the end of one scrape of a target to the start of the next, in ms. Workers that push"
              + " telemetry can report every 50 ms; a vLLM page is 10-80 KB, so scrape less often.")
      .define(SCRAPE_TIMEOUT_MS, Type.LONG, 500L, Range.atLeast(1L), Importance.MEDIUM,
          "Longest wait for one /metrics page, connection included, in ms; a late page skips the sample.")
      .define(SCRAPE_THREADS, Type.INT, 2, Range.atLeast(1), Importance.LOW,
          "Threads scraping targets; each target is scraped by one of them at a time.");

  public TelemetryIngestConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
  }

  /** Settings from {@code ZEROLAYER_TELEMETRY_...} variables, defaults elsewhere. */
  public static TelemetryIngestConfig fromEnvironment(final Map<String, String> env) {
    return new TelemetryIngestConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  public Duration scrapeInterval() {
    return Duration.ofMillis(getLong(SCRAPE_INTERVAL_MS));
  }

  public Duration scrapeTimeout() {
    return Duration.ofMillis(getLong(SCRAPE_TIMEOUT_MS));
  }

  public int scrapeThreads() {
    return getInt(SCRAPE_THREADS);
  }
}
