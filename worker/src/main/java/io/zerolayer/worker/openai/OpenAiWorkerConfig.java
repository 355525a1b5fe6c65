package io.zerolayer.worker.openai;

import io.zerolayer.runtime.EnvironmentConfig;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.NonEmptyString;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Settings of a worker in front of an OpenAI-compatible server; each key can also come from its
 * {@code ZEROLAYER_OPENAI_WORKER_...} variable. The instance id and the model have no default:
 * the id must be the one the instance's telemetry reports, and the model the one the server serves.
 */
public final class OpenAiWorkerConfig extends AbstractConfig {

  public static final String INSTANCE_ID = "openai.worker.instance.id";
  public static final String BASE_URL = "openai.worker.base.url";
  public static final String MODEL = "openai.worker.model";
  public static final String API_KEY = "openai.worker.api.key";
  public static final String SEQUENCE_QUERY_URL = "openai.worker.sequence.query.url";
  public static final String SEQUENCE_QUERY_TOKEN = "openai.worker.sequence.query.token";
  public static final String NETWORK_TIMEOUT_MS = "openai.worker.network.timeout.ms";
  public static final String RESPONSE_TIMEOUT_MS = "openai.worker.response.timeout.ms";
  public static final String SEQUENCE_RETRY_BACKOFF_MS = "openai.worker.sequence.retry.backoff.ms";
  public static final String MAX_CONCURRENT_TASKS = "openai.worker.max.concurrent.tasks";
  public static final String HTTP_HOST = "openai.worker.http.host";
  public static final String HTTP_PORT = "openai.worker.http.port";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(INSTANCE_ID, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new NonEmptyString(), Importance.HIGH,
          "The instance this worker serves: the id its telemetry reports and the router dispatches to.")
      .define(BASE_URL, Type.STRING, "http://127.0.0.1:8000", new NonEmptyString(), Importance.HIGH,
          "Address of the OpenAI-compatible server (vLLM, SGLang, llama.cpp server), without /v1.")
      .define(MODEL, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new NonEmptyString(), Importance.HIGH,
          "Model name sent with each completion, as the server serves it (vLLM: --served-model-name or --model).")
      .define(API_KEY, Type.PASSWORD, "", Importance.MEDIUM,
          "Bearer token the server expects (vLLM: --api-key); empty for none.")
      .define(SEQUENCE_QUERY_URL, Type.STRING, "http://127.0.0.1:8084", new NonEmptyString(), Importance.HIGH,
          "token-buffer's HTTP address, where resume tasks read the persisted prefix of their sequence.")
      .define(SEQUENCE_QUERY_TOKEN, Type.PASSWORD, ConfigDef.NO_DEFAULT_VALUE, Importance.HIGH,
          "token-buffer's tokenbuffer.query.token, which its sequence queries ask of their callers.")
      .define(NETWORK_TIMEOUT_MS, Type.LONG, 500L, Range.between(1L, 60_000L), Importance.MEDIUM,
          "How long to wait for a connection to the server or to token-buffer, in ms.")
      .define(RESPONSE_TIMEOUT_MS, Type.LONG, 60_000L, Range.atLeast(1L), Importance.MEDIUM,
          "How long to wait for the server's status line and headers of a completion, in ms.")
      .define(SEQUENCE_RETRY_BACKOFF_MS, Type.LONG, 200L, Range.between(0L, 10_000L), Importance.LOW,
          "Pause before asking token-buffer again while its sequence store is moving (HTTP 503), in ms.")
      .define(MAX_CONCURRENT_TASKS, Type.INT, 64, Range.between(1, 4_096), Importance.MEDIUM,
          "How many sequences are streamed from the server at once; the server batches and queues them.")
      .define(HTTP_HOST, Type.STRING, "127.0.0.1", new NonEmptyString(), Importance.MEDIUM,
          "Address the HTTP server binds: 127.0.0.1 for this machine only, 0.0.0.0 for every interface (in a"
              + " container, for probes and scrapes).")
      .define(HTTP_PORT, Type.INT, 8086, Range.between(0, 65_535), Importance.LOW,
          "Port of the metrics endpoint; 0 picks a free one.");

  public OpenAiWorkerConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
  }

  /** Settings from {@code ZEROLAYER_OPENAI_WORKER_...} variables, defaults elsewhere. */
  public static OpenAiWorkerConfig fromEnvironment(final Map<String, String> env) {
    return new OpenAiWorkerConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  public String instanceId() {
    return getString(INSTANCE_ID);
  }

  public String baseUrl() {
    return getString(BASE_URL);
  }

  public String model() {
    return getString(MODEL);
  }

  public String apiKey() {
    return getPassword(API_KEY).value();
  }

  public String sequenceQueryUrl() {
    return getString(SEQUENCE_QUERY_URL);
  }

  public String sequenceQueryToken() {
    return getPassword(SEQUENCE_QUERY_TOKEN).value();
  }

  public Duration networkTimeout() {
    return Duration.ofMillis(getLong(NETWORK_TIMEOUT_MS));
  }

  public Duration responseTimeout() {
    return Duration.ofMillis(getLong(RESPONSE_TIMEOUT_MS));
  }

  public Duration sequenceRetryBackoff() {
    return Duration.ofMillis(getLong(SEQUENCE_RETRY_BACKOFF_MS));
  }

  public int maxConcurrentTasks() {
    return getInt(MAX_CONCURRENT_TASKS);
  }

  public String httpHost() {
    return getString(HTTP_HOST);
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }
}
