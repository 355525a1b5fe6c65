package io.zerolayer.contract.serde;

import java.util.Map;

/**
 * Serde settings under Confluent's config keys, so that Confluent's own serdes can be swapped
 * in by configuration.
 *
 * @param registryUrl {@code schema.registry.url}: an http(s) URL, or {@code mock://scope} in unit tests
 * @param autoRegister {@code auto.register.schemas}: register the writer's schema on first use
 * @param basicAuthUserInfo {@code basic.auth.user.info} ("user:password"), or null
 * @param tls the truststore of an https registry, or null for the JVM's default
 */
public record SerdeConfig(String registryUrl, boolean autoRegister, String basicAuthUserInfo, RegistryTls tls) {

  public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
  public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
  public static final String SPECIFIC_AVRO_READER = "specific.avro.reader";
  public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";

  public SerdeConfig {
    if (registryUrl == null || registryUrl.isBlank()) {
      throw new IllegalArgumentException(SCHEMA_REGISTRY_URL
          + " is not set: give the registry's URL (http://host:port, or .../apis/ccompat/v7 for Apicurio)");
    }
  }

  /** Settings that trust the registry's certificate as the JVM's default truststore does. */
  public SerdeConfig(final String registryUrl, final boolean autoRegister, final String basicAuthUserInfo) {
    this(registryUrl, autoRegister, basicAuthUserInfo, null);
  }

  /** Reads the Confluent keys from a Kafka-style config map. */
  public static SerdeConfig from(final Map<String, ?> configs) {
    final Object url = configs.get(SCHEMA_REGISTRY_URL);
    final Object auto = configs.get(AUTO_REGISTER_SCHEMAS);
    final Object userInfo = configs.get(BASIC_AUTH_USER_INFO);
    final Object truststore = configs.get(RegistryTls.TRUSTSTORE_LOCATION);
    return new SerdeConfig(
        url == null ? null : url.toString(),
        auto == null || Boolean.parseBoolean(auto.toString()),
        userInfo == null ? null : userInfo.toString(),
        truststore == null ? null : new RegistryTls(truststore.toString(),
            String.valueOf(configs.get(RegistryTls.TRUSTSTORE_PASSWORD)),
            configs.get(RegistryTls.TRUSTSTORE_TYPE) == null ? null : configs.get(RegistryTls.TRUSTSTORE_TYPE).toString()));
  }
}
