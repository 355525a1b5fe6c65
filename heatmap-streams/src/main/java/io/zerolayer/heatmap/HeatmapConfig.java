package io.zerolayer.heatmap;

import io.zerolayer.heatmap.internal.RuleTimings;
import io.zerolayer.runtime.EnvironmentConfig;
import io.zerolayer.runtime.StreamsDurability;
import io.zerolayer.runtime.StreamsMembership;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** heatmap-streams settings; each key can also come from its {@code ZEROLAYER_...} variable. */
public final class HeatmapConfig extends AbstractConfig {

  public static final String APPLICATION_ID = "heatmap.application.id";
  public static final String EMIT_INTERVAL_MS = "heatmap.emit.interval.ms";
  public static final String STATE_DIR = "heatmap.state.dir";
  public static final String HTTP_HOST = "heatmap.http.host";
  public static final String HTTP_PORT = "heatmap.http.port";
  public static final String ADVERTISED_HOST = "heatmap.advertised.host";
  public static final String WINDOW_SIZE_MS = "heatmap.window.size.ms";
  public static final String WINDOW_ADVANCE_MS = "heatmap.window.advance.ms";
  public static final String WINDOW_RETENTION_MS = "heatmap.window.retention.ms";
  public static final String HISTORY_WINDOW_MS = "heatmap.history.window.ms";
  public static final String HISTORY_RETENTION_MS = "heatmap.history.retention.ms";
  public static final String OBSERVATION_MS = "heatmap.fragmentation.observation.ms";
  public static final String RECOVERY_HOLD_MS = "heatmap.recovery.hold.ms";
  public static final String SUSPECT_AFTER_MS = "heatmap.suspect.after.ms";
  public static final String EJECT_AFTER_MS = "heatmap.eject.after.ms";
  public static final String SMOOTHING_HALF_LIFE_MS = "heatmap.smoothing.half.life.ms";
  public static final String ZONE_PENALTY_FACTOR = "heatmap.zone.penalty.factor";
  public static final String LATENCY_HALF_LIFE_MS = "heatmap.latency.half.life.ms";
  public static final String LATENCY_MIN_SAMPLES = "heatmap.latency.min.samples";
  public static final String MAX_CLOCK_SKEW_MS = "heatmap.max.clock.skew.ms";
  public static final String FORGET_AFTER_MS = "heatmap.forget.after.ms";
  public static final String ROCKSDB_MEMORY_BYTES = "heatmap.rocksdb.memory.bytes";
  public static final String CACHE_MAX_BYTES = "heatmap.cache.max.bytes";
  public static final String DEFAULT_LATENCY_INTERCEPT_MS = "heatmap.default.latency.intercept.ms";
  public static final String DEFAULT_LATENCY_PER_INPUT_TOKEN_MS = "heatmap.default.latency.per.input.token.ms";
  public static final String DEFAULT_LATENCY_PER_OUTPUT_TOKEN_MS = "heatmap.default.latency.per.output.token.ms";

  /** The prefix of every key. */
  public static final String PREFIX = "heatmap.";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(APPLICATION_ID, Type.STRING, "zerolayer-heatmap", Importance.HIGH,
          "Kafka Streams application id: consumer group and prefix of internal topics.")
      .define(EMIT_INTERVAL_MS, Type.LONG, 200L, Range.between(10L, 60_000L), Importance.HIGH,
          "How often changed heatmap rows are published (wall clock), in ms.")
      .define(STATE_DIR, Type.STRING, System.getProperty("java.io.tmpdir") + "/zerolayer-heatmap", Importance.MEDIUM,
          "Where RocksDB keeps the state stores.")
      .define(HTTP_HOST, Type.STRING, "127.0.0.1", new NonEmptyString(), Importance.MEDIUM,
          "Address the HTTP server binds: 127.0.0.1 for this machine only, 0.0.0.0 for every interface (in a"
              + " container, for probes and scrapes).")
      .define(HTTP_PORT, Type.INT, 8083, Range.between(0, 65_535), Importance.LOW,
          "Port of the metrics and interactive-query endpoint; 0 picks a free one.")
      .define(ADVERTISED_HOST, Type.STRING, "127.0.0.1", Importance.MEDIUM,
          "Host other instances of the app reach this one at, to forward queries.")
      .define(WINDOW_SIZE_MS, Type.LONG, 1_000L, Range.between(10L, 600_000L), Importance.MEDIUM,
          "Size of the short windows that drive the score, in ms; a multiple of the advance.")
      .define(WINDOW_ADVANCE_MS, Type.LONG, 200L, Range.between(10L, 600_000L), Importance.MEDIUM,
          "Advance of the short windows, in ms.")
      .define(WINDOW_RETENTION_MS, Type.LONG, 120_000L, Range.atLeast(1_000L), Importance.LOW,
          "How long the raw samples of short windows are kept, in ms; at least a history window and an advance.")
      .define(HISTORY_WINDOW_MS, Type.LONG, 60_000L, Range.atLeast(1_000L), Importance.MEDIUM,
          "Size of the history windows, in ms.")
      .define(HISTORY_RETENTION_MS, Type.LONG, 3_600_000L, Range.atLeast(1_000L), Importance.MEDIUM,
          "How long history windows are kept, in ms.")
      .define(OBSERVATION_MS, Type.LONG, 3_000L, Range.atLeast(1L), Importance.MEDIUM,
          "How long fragmentation above 92 % is observed before the instance is ejected, in ms.")
      .define(RECOVERY_HOLD_MS, Type.LONG, 3_000L, Range.atLeast(0L), Importance.LOW,
          "How long a recovering instance stays capped at 0.3 once fragmentation is below 85 %, in ms.")
      .define(SUSPECT_AFTER_MS, Type.LONG, 500L, Range.atLeast(1L), Importance.MEDIUM,
          "Silence after which an instance is SUSPECT, in ms.")
      .define(EJECT_AFTER_MS, Type.LONG, 2_000L, Range.atLeast(2L), Importance.MEDIUM,
          "Silence after which an instance is EJECTED, in ms.")
      .define(SMOOTHING_HALF_LIFE_MS, Type.LONG, 500L, Range.atLeast(1L), Importance.LOW,
          "Half-life of the smoothed (EWMA) metrics, in ms.")
      .define(ZONE_PENALTY_FACTOR, Type.DOUBLE, 0.05, Range.between(0.0, 1.0), Importance.MEDIUM,
          "Weight factor of every instance of a penalised zone.")
      .define(LATENCY_HALF_LIFE_MS, Type.LONG, 300_000L, Range.atLeast(1L), Importance.LOW,
          "After this long a completion weighs half as much in the latency model, in ms.")
      .define(LATENCY_MIN_SAMPLES, Type.LONG, 10L, Range.atLeast(3L), Importance.LOW,
          "Completions needed before an instance's fitted latency model replaces the defaults.")
      .define(MAX_CLOCK_SKEW_MS, Type.LONG, 30_000L, Range.atLeast(1L), Importance.LOW,
          "A sample time further than this from now, either way, is invalid, in ms.")
      .define(FORGET_AFTER_MS, Type.LONG, 3_600_000L, Range.atLeast(1L), Importance.LOW,
          "Silence after which an instance leaves the stores and the heatmap (a tombstone row), in ms.")
      .define(ROCKSDB_MEMORY_BYTES, Type.LONG, 64L * 1024 * 1024, Range.atLeast(1024L * 1024), Importance.MEDIUM,
          "Bytes of block cache and memtables shared by every RocksDB store of the process.")
      .define(CACHE_MAX_BYTES, Type.LONG, 128L * 1024 * 1024, Range.atLeast(0L), Importance.MEDIUM,
          "Bytes of the record cache in front of the stores written on every sample (heap).")
      .define(DEFAULT_LATENCY_INTERCEPT_MS, Type.DOUBLE, 40.0, Range.atLeast(0.0), Importance.LOW,
          "Latency model intercept used until an instance has completions, in ms.")
      .define(DEFAULT_LATENCY_PER_INPUT_TOKEN_MS, Type.DOUBLE, 0.1, Range.atLeast(0.0), Importance.LOW,
          "Latency per prompt token used until an instance has completions, in ms.")
      .define(DEFAULT_LATENCY_PER_OUTPUT_TOKEN_MS, Type.DOUBLE, 20.0, Range.atLeast(0.0), Importance.LOW,
          "Latency per generated token used until an instance has completions, in ms.");

  static {
    StreamsDurability.define(DEFINITION, PREFIX);
    StreamsMembership.define(DEFINITION, PREFIX);
  }

  public HeatmapConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
    if (getLong(WINDOW_RETENTION_MS) < getLong(HISTORY_WINDOW_MS) + getLong(WINDOW_ADVANCE_MS)) {
      throw new ConfigException(WINDOW_RETENTION_MS, getLong(WINDOW_RETENTION_MS), "must be at least "
          + HISTORY_WINDOW_MS + " + " + WINDOW_ADVANCE_MS + ": a history window is folded from the raw samples");
    }
    if (getLong(WINDOW_SIZE_MS) % getLong(WINDOW_ADVANCE_MS) != 0) {
      throw new ConfigException(WINDOW_SIZE_MS, getLong(WINDOW_SIZE_MS), "must be a multiple of "
          + WINDOW_ADVANCE_MS + " (" + getLong(WINDOW_ADVANCE_MS) + "): a window is made of whole slices");
    }
  }

  /** Settings from {@code ZEROLAYER_HEATMAP_...} variables, defaults elsewhere. */
  public static HeatmapConfig fromEnvironment(final Map<String, String> env) {
    return new HeatmapConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  public String applicationId() {
    return getString(APPLICATION_ID);
  }

  public Duration emitInterval() {
    return millis(EMIT_INTERVAL_MS);
  }

  /** Replication of the app's own topics and standby replicas of its stores. */
  public StreamsDurability durability() {
    return StreamsDurability.of(this, PREFIX);
  }

  /** This instance's id as a static member of the app's group, if it has one. */
  public Optional<String> instanceId() {
    return StreamsMembership.instanceId(this, PREFIX);
  }

  public Path stateDir() {
    return Path.of(getString(STATE_DIR));
  }

  public String httpHost() {
    return getString(HTTP_HOST);
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }

  public String advertisedHost() {
    return getString(ADVERTISED_HOST);
  }

  /** The rules' durations. */
  public RuleTimings timings() {
    return new RuleTimings(getLong(OBSERVATION_MS), getLong(RECOVERY_HOLD_MS), getLong(SUSPECT_AFTER_MS),
        getLong(EJECT_AFTER_MS));
  }

  /** A duration key's value. */
  public Duration millis(final String key) {
    return Duration.ofMillis(getLong(key));
  }
}
