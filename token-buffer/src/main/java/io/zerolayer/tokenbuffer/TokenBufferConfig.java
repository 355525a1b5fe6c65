package io.zerolayer.tokenbuffer;

import io.zerolayer.runtime.EnvironmentConfig;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/** token-buffer settings; each key can also come from its {@code ZEROLAYER_...} variable. */
public final class TokenBufferConfig extends AbstractConfig {

  public static final String APPLICATION_ID = "tokenbuffer.application.id";
  public static final String STATE_DIR = "tokenbuffer.state.dir";
  public static final String HTTP_PORT = "tokenbuffer.http.port";

  private static final ConfigDef DEFINITION = new ConfigDef()
      .define(APPLICATION_ID, Type.STRING, "zerolayer-token-buffer", Importance.HIGH,
          "Kafka Streams application id: consumer group and prefix of internal topics.")
      .define(STATE_DIR, Type.STRING, System.getProperty("java.io.tmpdir") + "/zerolayer-token-buffer",
          Importance.MEDIUM, "Where RocksDB keeps the sequence store.")
      .define(HTTP_PORT, Type.INT, 8084, Range.between(0, 65_535), Importance.LOW,
          "Port of the metrics endpoint; 0 picks a free one.");

  public TokenBufferConfig(final Map<String, ?> values) {
    super(DEFINITION, values);
  }

  /** Settings from {@code ZEROLAYER_TOKENBUFFER_...} variables, defaults elsewhere. */
  public static TokenBufferConfig fromEnvironment(final Map<String, String> env) {
    return new TokenBufferConfig(EnvironmentConfig.values(DEFINITION.names(), env));
  }

  public String applicationId() {
    return getString(APPLICATION_ID);
  }

  public Path stateDir() {
    return Path.of(getString(STATE_DIR));
  }

  public int httpPort() {
    return getInt(HTTP_PORT);
  }
}
