package io.zerolayer.telemetry;

import io.zerolayer.runtime.EnvironmentConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Telemetry-ingest settings; each key can also come from its {@code ZEROLAYER_...} variable. */
public final class TelemetryIngestConfig extends AbstractConfig {

  public static final String SCRAPE_INTERVAL_MS = "telemetry.scrape.interval.ms";
  public static final String SCRAPE_TIMEOUT_MS = "telemetry.scrape.timeout.ms";
  public static final String SCRAPE_THREADS = "telemetry.scrape.threads";
  public static final String HTTP_HOST = "telemetry.http.host";
  public static final String HTTP_PORT = "telemetry.http.port";
  public static final String TARGETS_FILE = "telemetry.targets.file";
  public static final String PUSH_CREDENTIALS_FILE = "telemetry.push.credentials.file";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(SCRAPE_INTERVAL_MS, Type.LONG, 1000L, Range.atLeast(10L), Importance.HIGH,
          "Time from the end of one scrape of a target to the start of the next, in ms. Workers that push"
              + " telemetry can report every 50 ms; a vLLM page is 10-80 KB, so scrape less often.")
      .define(SCRAPE_TIMEOUT_MS, Type.LONG, 500L, Range.atLeast(1L), Importance.MEDIUM,
          "Longest wait for one /metrics page, connection included, in ms; a late page skips the sample.")
      .define(SCRAPE_THREADS, Type.INT, 2, Range.atLeast(1), Importance.LOW,
          "Threads scraping targets; each target is scraped by one of them at a time.")
      .define(HTTP_HOST, Type.STRING, "127.0.0.1", new NonEmptyString(), Importance.MEDIUM,
          "Address the HTTP server binds: 127.0.0.1 for this machine only, 0.0.0.0 for every interface (in a"
              + " container, for probes and scrapes).")
      .define(HTTP_PORT, Type.INT, 8087, Range.between(0, 65_535), Importance.LOW,
          "Port of the metrics endpoint and of the push endpoint (POST /v1/telemetry); 0 picks a free one.")
      .define(TARGETS_FILE, Type.STRING, "", Importance.HIGH,
          "JSON file of the instances to scrape (see ScrapeTargetsFile and the README); empty: push only.")
      .define(PUSH_CREDENTIALS_FILE, Type.STRING, "", Importance.HIGH,
          "JSON file of who may push samples (POST /v1/telemetry): each pusher's token as its SHA-256 and the"
              + " instances it may report (see PushCredentials); empty: every push is refused.");

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

  public String httpHost() {
    return getString(HTTP_HOST);
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }

  /** The scrape targets file; empty when none is configured and telemetry only comes by push. */
  /** Who may push samples: the credentials file's pushers, or none when it is not set. */
  public PushCredentials pushCredentials() {
    final String file = getString(PUSH_CREDENTIALS_FILE).strip();
    return file.isEmpty() ? PushCredentials.NONE : PushCredentials.read(Path.of(file));
  }

  public Optional<Path> targetsFile() {
    final String file = getString(TARGETS_FILE).strip();
    return file.isEmpty() ? Optional.empty() : Optional.of(Path.of(file));
  }
}
