package io.zerolayer.contract.cluster;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.serde.RegistryTls;
import io.zerolayer.contract.serde.SerdeConfig;
import io.zerolayer.contract.topic.TopicCatalogue;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SslConfigs;

/**
 * Where the cluster and the registry are and how to reach them: the one place that maps
 * environment variables onto client settings.
 *
 * <ul>
 *   <li>{@code KAFKA_BOOTSTRAP_SERVERS} (required)
 *   <li>{@code KAFKA_SECURITY_PROTOCOL}: PLAINTEXT (default), SSL, SASL_PLAINTEXT, SASL_SSL
 *   <li>{@code KAFKA_SASL_MECHANISM} (SCRAM-SHA-512 by default, SCRAM-SHA-256, PLAIN),
 *       {@code KAFKA_SASL_USERNAME}, {@code KAFKA_SASL_PASSWORD}; or OAUTHBEARER with
 *       {@code KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL}, {@code _CLIENT_ID}, {@code _CLIENT_SECRET}
 *       and optionally {@code _SCOPE} (see {@link SaslSettings})
 *   <li>{@code KAFKA_SSL_TRUSTSTORE_LOCATION}, {@code KAFKA_SSL_TRUSTSTORE_PASSWORD},
 *       {@code KAFKA_SSL_TRUSTSTORE_TYPE}, {@code KAFKA_SSL_KEYSTORE_LOCATION},
 *       {@code KAFKA_SSL_KEYSTORE_PASSWORD}, {@code KAFKA_SSL_KEYSTORE_TYPE}, {@code KAFKA_SSL_KEY_PASSWORD}
 *   <li>{@code SCHEMA_REGISTRY_URL} (required), {@code SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO}, and for an
 *       https registry whose authority the JVM does not trust {@code SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION},
 *       {@code _PASSWORD}, {@code _TYPE}
 *   <li>{@code ZEROLAYER_TOPIC_PREFIX} (empty by default)
 * </ul>
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param security client security settings (empty for PLAINTEXT)
 * @param serdes schema registry settings
 * @param catalogue topic names in this deployment
 */
public record ClusterSettings(
    String bootstrapServers, Map<String, String> security, SerdeConfig serdes, TopicCatalogue catalogue) {

  /** Environment variable of the bootstrap servers. */
  public static final String BOOTSTRAP_SERVERS_VARIABLE = "KAFKA_BOOTSTRAP_SERVERS";
  /** Environment variable of the registry's URL. */
  public static final String REGISTRY_URL_VARIABLE = "SCHEMA_REGISTRY_URL";
  /** Environment variable of the registry's basic-auth user info. */
  public static final String REGISTRY_USER_INFO_VARIABLE = "SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO";
  /** Environment variable of the truststore of an https registry. */
  public static final String REGISTRY_TRUSTSTORE_VARIABLE = "SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION";
  /** Environment variable of that truststore's password. */
  public static final String REGISTRY_TRUSTSTORE_PASSWORD_VARIABLE = "SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD";
  /** Environment variable of that truststore's type (PKCS12, the default, or JKS). */
  public static final String REGISTRY_TRUSTSTORE_TYPE_VARIABLE = "SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE";
  /** Environment variable of the prefix of every topic name. */
  public static final String TOPIC_PREFIX_VARIABLE = "ZEROLAYER_TOPIC_PREFIX";

  public ClusterSettings {
    requireNonNull(bootstrapServers, "bootstrapServers");
    security = Map.copyOf(security);
    requireNonNull(serdes, "serdes");
    requireNonNull(catalogue, "catalogue");
  }

  /** Plain-text settings, as the local stack and the integration tests use. */
  public static ClusterSettings plaintext(final String bootstrapServers, final String registryUrl,
      final TopicCatalogue catalogue) {
    return new ClusterSettings(bootstrapServers, Map.of(), new SerdeConfig(registryUrl, true, null), catalogue);
  }

  /** Reads the settings from environment variables (see the class doc). */
  public static ClusterSettings fromEnvironment(final Map<String, String> env) {
    final String bootstrap = required(env, BOOTSTRAP_SERVERS_VARIABLE, "host:9092,host2:9092");
    final String registry = required(env, REGISTRY_URL_VARIABLE, "http://registry:8081");
    final String truststore = env.get(REGISTRY_TRUSTSTORE_VARIABLE);
    final RegistryTls tls = truststore == null || truststore.isBlank() ? null : new RegistryTls(truststore,
        required(env, REGISTRY_TRUSTSTORE_PASSWORD_VARIABLE, "changeit"), env.get(REGISTRY_TRUSTSTORE_TYPE_VARIABLE));
    return new ClusterSettings(bootstrap, security(env),
        new SerdeConfig(registry, true, env.get(REGISTRY_USER_INFO_VARIABLE), tls),
        new TopicCatalogue(env.getOrDefault(TOPIC_PREFIX_VARIABLE, "")));
  }

  /**
   * The variables {@link #fromEnvironment} reads these plain-text settings back from, for an app
   * started as a child process (the local stack's fault tests). Security settings are not carried.
   */
  public Map<String, String> environment() {
    if (serdes.tls() != null
        || !security.isEmpty() && !"PLAINTEXT".equals(security.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG))) {
      throw new IllegalStateException("Only plain-text settings can be handed on as environment variables");
    }
    final Map<String, String> env = new HashMap<>();
    env.put(BOOTSTRAP_SERVERS_VARIABLE, bootstrapServers);
    env.put(REGISTRY_URL_VARIABLE, serdes.registryUrl());
    env.put(TOPIC_PREFIX_VARIABLE, catalogue.prefix());
    return env;
  }

  /**
   * Bootstrap servers and security from the environment, for tools that need no registry
   * (topic provisioning).
   */
  public static Map<String, Object> clientPropertiesFromEnvironment(final Map<String, String> env) {
    final Map<String, Object> props = new HashMap<>(security(env));
    props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
        required(env, BOOTSTRAP_SERVERS_VARIABLE, "host:9092,host2:9092"));
    return props;
  }

  private static Map<String, String> security(final Map<String, String> env) {
    final String protocol = env.getOrDefault("KAFKA_SECURITY_PROTOCOL", "PLAINTEXT");
    final Map<String, String> security = new HashMap<>();
    security.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
    if (protocol.startsWith("SASL")) {
      security.putAll(SaslSettings.of(env, (variable, example) -> required(env, variable, example)));
    }
    putIfSet(security, env, "KAFKA_SSL_TRUSTSTORE_LOCATION", SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG);
    putIfSet(security, env, "KAFKA_SSL_TRUSTSTORE_PASSWORD", SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG);
    putIfSet(security, env, "KAFKA_SSL_TRUSTSTORE_TYPE", SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG);
    putIfSet(security, env, "KAFKA_SSL_KEYSTORE_LOCATION", SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG);
    putIfSet(security, env, "KAFKA_SSL_KEYSTORE_PASSWORD", SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG);
    putIfSet(security, env, "KAFKA_SSL_KEYSTORE_TYPE", SslConfigs.SSL_KEYSTORE_TYPE_CONFIG);
    putIfSet(security, env, "KAFKA_SSL_KEY_PASSWORD", SslConfigs.SSL_KEY_PASSWORD_CONFIG);
    return security;
  }

  /** Settings every Kafka client of an app starts from: bootstrap servers and security. */
  public Map<String, Object> clientProperties() {
    final Map<String, Object> props = new HashMap<>(security);
    props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return props;
  }

  private static void putIfSet(final Map<String, String> target, final Map<String, String> env,
      final String variable, final String key) {
    final String value = env.get(variable);
    if (value != null && !value.isBlank()) {
      target.put(key, value);
    }
  }

  private static String required(final Map<String, String> env, final String variable, final String example) {
    final String value = env.get(variable);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("Environment variable " + variable + " is not set; set it, for example "
          + variable + "=" + example);
    }
    return value;
  }
}
