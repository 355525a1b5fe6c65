package io.zerolayer.contract.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * The SASL settings of a client from the environment: SCRAM-SHA-512 or -256 and PLAIN with a user
 * name and password, or OAUTHBEARER with an OAuth client's credentials and the token endpoint
 * (Kafka's own login callback handler). Values go into the JAAS line quoted and escaped, so that
 * a password with quotes, backslashes or spaces reaches the broker as it is.
 */
final class SaslSettings {

  static final String MECHANISM = "KAFKA_SASL_MECHANISM";
  static final String USERNAME = "KAFKA_SASL_USERNAME";
  static final String PASSWORD = "KAFKA_SASL_PASSWORD";
  static final String TOKEN_ENDPOINT = "KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL";
  static final String CLIENT_ID = "KAFKA_SASL_OAUTHBEARER_CLIENT_ID";
  static final String CLIENT_SECRET = "KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET";
  static final String SCOPE = "KAFKA_SASL_OAUTHBEARER_SCOPE";

  private static final String OAUTHBEARER = "OAUTHBEARER";

  private SaslSettings() {
  }

  /**
   * @param required reads a variable that must be set, given an example value for the error
   */
  static Map<String, String> of(final Map<String, String> env,
      final BiFunction<String, String, String> required) {
    final String mechanism = env.getOrDefault(MECHANISM, "SCRAM-SHA-512");
    final Map<String, String> settings = new HashMap<>();
    settings.put(SaslConfigs.SASL_MECHANISM, mechanism);
    if (OAUTHBEARER.equals(mechanism)) {
      settings.put(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS,
          "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler");
      settings.put(SaslConfigs.SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL,
          required.apply(TOKEN_ENDPOINT, "https://idp.example/oauth2/token"));
      final StringBuilder jaas = new StringBuilder(
          "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required")
          .append(" clientId=").append(quoted(required.apply(CLIENT_ID, "zerolayer-router")))
          .append(" clientSecret=").append(quoted(required.apply(CLIENT_SECRET, "secret")));
      final String scope = env.get(SCOPE);
      if (scope != null && !scope.isBlank()) {
        jaas.append(" scope=").append(quoted(scope));
      }
      settings.put(SaslConfigs.SASL_JAAS_CONFIG, jaas.append(';').toString());
      return settings;
    }
    final String module = mechanism.startsWith("SCRAM")
        ? "org.apache.kafka.common.security.scram.ScramLoginModule"
        : "org.apache.kafka.common.security.plain.PlainLoginModule";
    settings.put(SaslConfigs.SASL_JAAS_CONFIG, module + " required username="
        + quoted(required.apply(USERNAME, "router")) + " password=" + quoted(required.apply(PASSWORD, "secret"))
        + ";");
    return settings;
  }

  /** A JAAS option value: in double quotes, with backslashes and quotes escaped. */
  static String quoted(final String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
