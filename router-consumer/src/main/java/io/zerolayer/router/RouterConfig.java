package io.zerolayer.router;

import io.zerolayer.runtime.EnvironmentConfig;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** Router settings; each key can also come from its {@code ZEROLAYER_...} variable. */
public final class RouterConfig extends AbstractConfig {

  public static final String ROUTER_ID = "router.id";
  public static final String GROUP_ID = "router.group.id";
  public static final String MAX_OUTPUT_TOKENS = "router.max.output.tokens";
  public static final String MAX_PROMPT_CHARS = "router.max.prompt.chars";
  public static final String DEFAULT_RETRY_AFTER_MS = "router.default.retry.after.ms";
  public static final String HTTP_PORT = "router.http.port";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(ROUTER_ID, Type.STRING, "", Importance.HIGH,
          "This router's id, unique and stable across restarts (its transactional id); random when empty.")
      .define(GROUP_ID, Type.STRING, "zerolayer-router", Importance.HIGH,
          "Consumer group shared by all routers of a deployment.")
      .define(MAX_OUTPUT_TOKENS, Type.INT, 4096, Range.atLeast(1), Importance.MEDIUM,
          "Largest maxOutputTokens a request may ask for.")
      .define(MAX_PROMPT_CHARS, Type.INT, 200_000, Range.atLeast(1), Importance.MEDIUM,
          "Largest prompt, in characters, a request may carry.")
      .define(DEFAULT_RETRY_AFTER_MS, Type.LONG, 1000L, Range.atLeast(1L), Importance.LOW,
          "Retry time given when the heatmap knows no instance at all, in ms.")
      .define(HTTP_PORT, Type.INT, 8082, Range.between(0, 65_535), Importance.LOW,
          "Port of the metrics endpoint; 0 picks a free one.");

  public RouterConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
  }

  /** Settings from {@code ZEROLAYER_ROUTER_...} variables, defaults elsewhere. */
  public static RouterConfig fromEnvironment(final Map<String, String> env) {
    return new RouterConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  public String routerId() {
    final String id = getString(ROUTER_ID);
    return id.isBlank() ? "router-" + UUID.randomUUID().toString().substring(0, 8) : id;
  }

  public String groupId() {
    return getString(GROUP_ID);
  }

  public int maxOutputTokens() {
    return getInt(MAX_OUTPUT_TOKENS);
  }

  public int maxPromptChars() {
    return getInt(MAX_PROMPT_CHARS);
  }

  public long defaultRetryAfterMs() {
    return getLong(DEFAULT_RETRY_AFTER_MS);
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }
}
