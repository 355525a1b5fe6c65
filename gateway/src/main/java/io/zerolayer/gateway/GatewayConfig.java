package io.zerolayer.gateway;

import io.zerolayer.client.PartitionShare;
import io.zerolayer.gateway.internal.Door;
import io.zerolayer.runtime.EnvironmentConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * Settings of an HTTP gateway; each key can also come from its {@code ZEROLAYER_GATEWAY_...}
 * variable. The tenant file and the signing secret have no default: the first says whose keys
 * are accepted, the second is shared with the routers, which check what the gateway vouches for.
 */
public final class GatewayConfig extends AbstractConfig {

  public static final String HTTP_HOST = "gateway.http.host";
  public static final String HTTP_PORT = "gateway.http.port";
  public static final String TENANTS_FILE = "gateway.tenants.file";
  public static final String SIGNING_SECRET = "gateway.signing.secret";
  public static final String DEFAULT_MAX_TOKENS = "gateway.default.max.tokens";
  public static final String MAX_TOKENS = "gateway.max.tokens";
  public static final String MAX_BODY_BYTES = "gateway.max.body.bytes";
  public static final String FIRST_TOKEN_TIMEOUT_MS = "gateway.first.token.timeout.ms";
  public static final String STREAM_IDLE_TIMEOUT_MS = "gateway.stream.idle.timeout.ms";
  public static final String SEQUENCE_QUERY_URL = "gateway.sequence.query.url";
  public static final String SEQUENCE_QUERY_TOKEN = "gateway.sequence.query.token";
  public static final String LAG_TARGET_MS = "gateway.lag.target.ms";
  public static final String MAX_OPEN_ANSWERS = "gateway.max.open.answers";
  public static final String MIN_OPEN_ANSWERS = "gateway.min.open.answers";
  public static final String OVERLOAD_RETRY_AFTER_MS = "gateway.overload.retry.after.ms";
  public static final String REPLICAS = "gateway.replicas";
  public static final String REPLICA_INDEX = "gateway.replica.index";
  /** Where the gateway listens unless told otherwise, and where the embedded default serves it. */
  public static final int DEFAULT_HTTP_PORT = 8080;

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(HTTP_HOST, Type.STRING, "127.0.0.1", new NonEmptyString(), Importance.HIGH,
          "Address the HTTP server binds: 127.0.0.1 for this machine only, 0.0.0.0 for every interface.")
      .define(HTTP_PORT, Type.INT, DEFAULT_HTTP_PORT, Range.between(0, 65_535), Importance.HIGH,
          "Port of the OpenAI- and Anthropic-compatible API, /health, /ready and /metrics; 0 picks a free one.")
      .define(TENANTS_FILE, Type.STRING, "", Importance.HIGH,
          "The routers' tenant file (JSON): a caller's API key must hash to a tenant's apiKeySha256. Required"
              + " by GatewayApp; a gateway started in-process is given its tenants.")
      .define(SIGNING_SECRET, Type.PASSWORD, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH,
          "Secret shared with the routers (router.gateway.signing.secret), at least 32 bytes: the gateway signs"
              + " the tenant of each request with it instead of putting the API key on a topic.")
      .define(DEFAULT_MAX_TOKENS, Type.INT, 1024, Range.atLeast(1), Importance.MEDIUM,
          "Output tokens a request may generate when it does not say (OpenAI's max_tokens is optional).")
      .define(MAX_TOKENS, Type.INT, 4096, Range.atLeast(1), Importance.MEDIUM,
          "The most output tokens a request may ask for; more is answered with 400. Keep it at or below"
              + " router.max.output.tokens.")
      .define(MAX_BODY_BYTES, Type.INT, 1_000_000, Range.between(1_024, 100_000_000), Importance.MEDIUM,
          "The largest request body accepted, in bytes; a larger one is answered with 413.")
      .define(FIRST_TOKEN_TIMEOUT_MS, Type.LONG, 60_000L, Range.atLeast(1L), Importance.MEDIUM,
          "How long a request waits for its first token or its outcome before it is answered with 504, in ms.")
      .define(STREAM_IDLE_TIMEOUT_MS, Type.LONG, 30_000L, Range.atLeast(1L), Importance.MEDIUM,
          "How long a started response may go without a token before the gateway gives up on it, in ms.")
      .define(SEQUENCE_QUERY_URL, Type.STRING, "http://127.0.0.1:8084", new NonEmptyString(), Importance.MEDIUM,
          "token-buffer's HTTP address, where a reconnecting client's stream is read back from"
              + " (GET /v1/streams/{id}).")
      .define(SEQUENCE_QUERY_TOKEN, Type.PASSWORD, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH,
          "token-buffer's tokenbuffer.query.token, which its sequence queries ask of their callers.")
      .define(LAG_TARGET_MS, Type.LONG, 1_000L, Range.atLeast(1L), Importance.MEDIUM,
          "How late a worker may have a request after it reached the gateway, or a chunk reach the gateway after it"
              + " was emitted upstream, before the answer counts as late, in ms. Each late answer lowers how many"
              + " answers the gateway keeps open (by a tenth); each on-time one raises it again (by one) while half"
              + " of them are in use. The engine's own pace never counts.")
      .define(MAX_OPEN_ANSWERS, Type.INT, 200, Range.atLeast(1), Importance.MEDIUM,
          "The most answers the gateway keeps open at once, and where it starts; a request beyond the current"
              + " limit gets 503 (OpenAI) or 529 (Anthropic) with retry-after at once. Keep it below the HTTP"
              + " server's 250 threads.")
      .define(MIN_OPEN_ANSWERS, Type.INT, 8, Range.atLeast(1), Importance.MEDIUM,
          "The fewest answers the gateway keeps open at once, however late the layer delivers.")
      .define(OVERLOAD_RETRY_AFTER_MS, Type.LONG, 1_000L, Range.atLeast(0L), Importance.MEDIUM,
          "What a request refused at the door is told to wait (retry-after, retry-after-ms), in ms.")
      .define(REPLICAS, Type.INT, 1, Range.atLeast(1), Importance.MEDIUM,
          "How many gateway replicas serve behind the load balancer. Each reads only its share of the token"
              + " and response topics' partitions (every " + REPLICAS + "-th, from its " + REPLICA_INDEX + ") and"
              + " gives its requests ids that land there; the topics need at least this many partitions.")
      .define(REPLICA_INDEX, Type.INT, 0, Range.atLeast(0), Importance.MEDIUM,
          "This replica's index, from 0 to " + REPLICAS + " - 1, unique among the replicas (a StatefulSet's"
              + " ordinal, say).");

  public GatewayConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
    if (getInt(MIN_OPEN_ANSWERS) > getInt(MAX_OPEN_ANSWERS)) {
      throw new ConfigException(MIN_OPEN_ANSWERS + " is " + getInt(MIN_OPEN_ANSWERS) + " but " + MAX_OPEN_ANSWERS
          + " is " + getInt(MAX_OPEN_ANSWERS) + ": the fewest open answers cannot be more than the most");
    }
    if (getInt(REPLICA_INDEX) >= getInt(REPLICAS)) {
      throw new ConfigException(REPLICA_INDEX + " is " + getInt(REPLICA_INDEX) + " but " + REPLICAS + " is "
          + getInt(REPLICAS) + ": give each replica an index from 0 to " + (getInt(REPLICAS) - 1));
    }
  }

  /** Settings from {@code ZEROLAYER_GATEWAY_...} variables, defaults elsewhere. */
  public static GatewayConfig fromEnvironment(final Map<String, String> env) {
    return new GatewayConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  public String httpHost() {
    return getString(HTTP_HOST);
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }

  /** The tenant file; the error says how to name one. */
  public Path tenantsFile() {
    final String file = getString(TENANTS_FILE);
    if (file.isBlank()) {
      throw new ConfigException(TENANTS_FILE, file, "name the routers' tenant file in "
          + EnvironmentConfig.variable(TENANTS_FILE));
    }
    return Path.of(file);
  }

  public String signingSecret() {
    final Password secret = getPassword(SIGNING_SECRET);
    return secret == null ? "" : secret.value();
  }

  public int defaultMaxTokens() {
    return getInt(DEFAULT_MAX_TOKENS);
  }

  public int maxTokens() {
    return getInt(MAX_TOKENS);
  }

  public int maxBodyBytes() {
    return getInt(MAX_BODY_BYTES);
  }

  public Duration firstTokenTimeout() {
    return Duration.ofMillis(getLong(FIRST_TOKEN_TIMEOUT_MS));
  }

  public String sequenceQueryUrl() {
    return getString(SEQUENCE_QUERY_URL);
  }

  public String sequenceQueryToken() {
    return getPassword(SEQUENCE_QUERY_TOKEN).value();
  }

  public Duration streamIdleTimeout() {
    return Duration.ofMillis(getLong(STREAM_IDLE_TIMEOUT_MS));
  }

  public Duration lagTarget() {
    return Duration.ofMillis(getLong(LAG_TARGET_MS));
  }

  /** The open answers allowed: from the most, down to the fewest while the layer delivers late. */
  public Door.Limits openAnswers() {
    return new Door.Limits(getInt(MIN_OPEN_ANSWERS), getInt(MAX_OPEN_ANSWERS));
  }

  public Duration overloadRetryAfter() {
    return Duration.ofMillis(getLong(OVERLOAD_RETRY_AFTER_MS));
  }

  /** The partitions of the token and response topics this replica reads. */
  public PartitionShare partitionShare() {
    return new PartitionShare(getInt(REPLICA_INDEX), getInt(REPLICAS));
  }
}
