package io.zerolayer.heatmap;

import io.zerolayer.runtime.EnvironmentConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** heatmap-streams settings; each key can also come from its {@code ZEROLAYER_...} variable. */
public final class HeatmapConfig extends AbstractConfig {

  public static final String APPLICATION_ID = "heatmap.application.id";
  public static final String EMIT_INTERVAL_MS = "heatmap.emit.interval.ms";
  public static final String STATE_DIR = "heatmap.state.dir";
  public static final String HTTP_PORT = "heatmap.http.port";
  public static final String DEFAULT_LATENCY_INTERCEPT_MS = "heatmap.default.latency.intercept.ms";
  public static final String DEFAULT_LATENCY_PER_INPUT_TOKEN_MS = "heatmap.default.latency.per.input.token.ms";
  public static final String DEFAULT_LATENCY_PER_OUTPUT_TOKEN_MS = "heatmap.default.latency.per.output.token.ms";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(APPLICATION_ID, Type.STRING, "zerolayer-heatmap", Importance.HIGH,
          "Kafka Streams application id: consumer group and prefix of internal topics.")
      .define(EMIT_INTERVAL_MS, Type.LONG, 200L, Range.between(10L, 60_000L), Importance.HIGH,
          "How often changed heatmap rows are published (wall clock), in ms.")
      .define(STATE_DIR, Type.STRING, System.getProperty("java.io.tmpdir") + "/zerolayer-heatmap", Importance.MEDIUM,
          "Where RocksDB keeps the state stores.")
      .define(HTTP_PORT, Type.INT, 8083, Range.between(0, 65_535), Importance.LOW,
          "Port of the metrics endpoint; 0 picks a free one.")
      .define(DEFAULT_LATENCY_INTERCEPT_MS, Type.DOUBLE, 40.0, Range.atLeast(0.0), Importance.LOW,
          "Latency model intercept used until an instance has completions, in ms.")
      .define(DEFAULT_LATENCY_PER_INPUT_TOKEN_MS, Type.DOUBLE, 0.1, Range.atLeast(0.0), Importance.LOW,
          "Latency per prompt token used until an instance has completions, in ms.")
      .define(DEFAULT_LATENCY_PER_OUTPUT_TOKEN_MS, Type.DOUBLE, 20.0, Range.atLeast(0.0), Importance.LOW,
          "Latency per generated token used until an instance has completions, in ms.");

  public HeatmapConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
  }

  /** Settings from {@code ZEROLAYER_HEATMAP_...} variables, defaults elsewhere. */
  public static HeatmapConfig fromEnvironment(final Map<String, String> env) {
    return new HeatmapConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  public String applicationId() {
    return getString(APPLICATION_ID);
  }

  public Duration emitInterval() {
    return Duration.ofMillis(getLong(EMIT_INTERVAL_MS));
  }

  public Path stateDir() {
    return Path.of(getString(STATE_DIR));
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }

  public double defaultLatencyInterceptMs() {
    return getDouble(DEFAULT_LATENCY_INTERCEPT_MS);
  }

  public double defaultLatencyPerInputTokenMs() {
    return getDouble(DEFAULT_LATENCY_PER_INPUT_TOKEN_MS);
  }

  public double defaultLatencyPerOutputTokenMs() {
    return getDouble(DEFAULT_LATENCY_PER_OUTPUT_TOKEN_MS);
  }
}
