package io.zerolayer.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Maps environment variables onto an app's config keys: key {@code heatmap.emit.interval.ms}
 * is read from {@code ZEROLAYER_HEATMAP_EMIT_INTERVAL_MS}.
 */
public final class EnvironmentConfig {

  private EnvironmentConfig() {
  }

  /** The values of the given keys that the environment sets. */
  public static Map<String, Object> values(final Set<String> keys, final Map<String, String> env) {
    final Map<String, Object> values = new HashMap<>();
    for (final String key : keys) {
      final String value = env.get(variable(key));
      if (value != null) {
        values.put(key, value);
      }
    }
    return values;
  }

  /** The environment variable of a config key. */
  public static String variable(final String key) {
    return "ZEROLAYER_" + key.toUpperCase().replace('.', '_').replace('-', '_');
  }
}
