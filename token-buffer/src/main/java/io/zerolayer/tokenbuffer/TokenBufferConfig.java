package io.zerolayer.tokenbuffer;

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
import org.apache.kafka.common.config.types.Password;

/** token-buffer settings; each key can also come from its {@code ZEROLAYER_...} variable. */
public final class TokenBufferConfig extends AbstractConfig {

  public static final String APPLICATION_ID = "tokenbuffer.application.id";
  public static final String STATE_DIR = "tokenbuffer.state.dir";
  public static final String HTTP_HOST = "tokenbuffer.http.host";
  public static final String HTTP_PORT = "tokenbuffer.http.port";
  public static final String STALL_CHECK_INTERVAL_MS = "tokenbuffer.stall.check.interval.ms";
  public static final String INSTANCE_TIMEOUT_MS = "tokenbuffer.instance.timeout.ms";
  public static final String STREAM_TIMEOUT_MS = "tokenbuffer.stream.timeout.ms";
  public static final String FINISHED_RETENTION_MS = "tokenbuffer.finished.retention.ms";
  public static final String ADVERTISED_HOST = "tokenbuffer.advertised.host";
  public static final String CUTOVER_ENABLED = "tokenbuffer.cutover.enabled";
  public static final String COMMIT_INTERVAL_MS = "tokenbuffer.commit.interval.ms";
  public static final String QUERY_TOKEN = "tokenbuffer.query.token";
  public static final String TENANTS_FILE = "tokenbuffer.tenants.file";

  /** The prefix of every key. */
  public static final String PREFIX = "tokenbuffer.";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(APPLICATION_ID, Type.STRING, "zerolayer-token-buffer", Importance.HIGH,
          "Kafka Streams application id: consumer group and prefix of internal topics.")
      .define(STATE_DIR, Type.STRING, System.getProperty("java.io.tmpdir") + "/zerolayer-token-buffer",
          Importance.MEDIUM, "Where RocksDB keeps the sequence store.")
      .define(HTTP_HOST, Type.STRING, "127.0.0.1", new NonEmptyString(), Importance.MEDIUM,
          "Address the HTTP server binds: 127.0.0.1 for this machine only, 0.0.0.0 for every interface (in a"
              + " container, for probes and scrapes).")
      .define(HTTP_PORT, Type.INT, 8084, Range.between(0, 65_535), Importance.LOW,
          "Port of the metrics endpoint and of GET /v1/sequences/{id}; 0 picks a free one.")
      .define(TENANTS_FILE, Type.STRING, "", Importance.MEDIUM,
          "The routers' tenant file: a tenant sending its API key as the bearer token of GET /v1/sequences/{id}"
              + " reads its own sequences, and no other. Empty: only the query token reads.")
      .define(QUERY_TOKEN, Type.PASSWORD, null, Importance.HIGH,
          "The bearer token GET /v1/sequences/{id} asks of its callers (the gateways' gateway.sequence.query.token,"
              + " the workers'): any tenant's text can be read there. Required to start the app; a long random"
              + " secret, e.g. from openssl rand -hex 32.")
      .define(STALL_CHECK_INTERVAL_MS, Type.LONG, 100L, Range.between(10L, 10_000L), Importance.MEDIUM,
          "How often every streaming sequence is checked for a stall (wall clock), in ms.")
      .define(INSTANCE_TIMEOUT_MS, Type.LONG, 1_200L, Range.atLeast(1L), Importance.MEDIUM,
          "A sequence with no new token for this long is stalled, in ms.")
      .define(STREAM_TIMEOUT_MS, Type.LONG, 3_000L, Range.atLeast(1L), Importance.MEDIUM,
          "An attempt with no first token for this long is stalled, in ms.")
      .define(FINISHED_RETENTION_MS, Type.LONG, 600_000L, Range.atLeast(0L), Importance.MEDIUM,
          "How long a finished sequence stays in the store before it is removed, in ms.")
      .define(ADVERTISED_HOST, Type.STRING, "127.0.0.1", Importance.MEDIUM,
          "Host name other instances use to reach this one's HTTP port (interactive queries).")
      .define(COMMIT_INTERVAL_MS, Type.LONG, 10L, Range.between(0L, 60_000L), Importance.MEDIUM,
          "How long token-buffer waits between commits (Kafka Streams' commit.interval.ms), in ms. Readers of"
              + " the response topic see committed chunks only, so each chunk waits up to this long plus one"
              + " commit; 0 commits after every batch of records it processed.")
      .define(CUTOVER_ENABLED, Type.BOOLEAN, true, Importance.LOW,
          "Whether a stalled or failed attempt is handed to a backup. false behaves like a proxy without"
              + " resumption (the benchmark's control group): no stall is reported, an attempt its worker reports"
              + " failed ends the sequence with finish reason error, and a silent one waits for the client.");

  static {
    StreamsDurability.define(DEFINITION, PREFIX);
    StreamsMembership.define(DEFINITION, PREFIX);
  }

  public TokenBufferConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
  }

  /** Settings from {@code ZEROLAYER_TOKENBUFFER_...} variables, defaults elsewhere. */
  public static TokenBufferConfig fromEnvironment(final Map<String, String> env) {
    return new TokenBufferConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  /**
   * The token sequence queries must bear.
   *
   * @throws ConfigException when it is not set
   */
  public String queryToken() {
    final Password token = getPassword(QUERY_TOKEN);
    if (token == null || token.value().isBlank()) {
      throw new ConfigException(QUERY_TOKEN + " is not set: GET /v1/sequences/{id} returns any tenant's text, so"
          + " token-buffer answers only callers that bear this token. Set " + EnvironmentConfig.variable(QUERY_TOKEN)
          + " to a long random secret (openssl rand -hex 32) and give the same to the gateways"
          + " (gateway.sequence.query.token) and workers that read sequences back");
    }
    return token.value();
  }

  public String applicationId() {
    return getString(APPLICATION_ID);
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

  /** The tenant file, if one is set. */
  public Optional<Path> tenantsFile() {
    final String file = getString(TENANTS_FILE);
    return file.isBlank() ? Optional.empty() : Optional.of(Path.of(file));
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }

  public Duration stallCheckInterval() {
    return Duration.ofMillis(getLong(STALL_CHECK_INTERVAL_MS));
  }

  public Duration instanceTimeout() {
    return Duration.ofMillis(getLong(INSTANCE_TIMEOUT_MS));
  }

  public Duration streamTimeout() {
    return Duration.ofMillis(getLong(STREAM_TIMEOUT_MS));
  }

  public String advertisedHost() {
    return getString(ADVERTISED_HOST);
  }

  public Duration commitInterval() {
    return Duration.ofMillis(getLong(COMMIT_INTERVAL_MS));
  }

  public boolean cutoverEnabled() {
    return getBoolean(CUTOVER_ENABLED);
  }

  public Duration finishedRetention() {
    return Duration.ofMillis(getLong(FINISHED_RETENTION_MS));
  }
}
