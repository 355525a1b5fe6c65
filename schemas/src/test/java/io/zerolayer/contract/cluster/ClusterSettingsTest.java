package io.zerolayer.contract.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.serde.RegistryTls;
import io.zerolayer.contract.serde.SerdeConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {

  @Test
  void shouldBuildSaslScramSettingsFromTheEnvironment() {
    final ClusterSettings settings = ClusterSettings.fromEnvironment(Map.of(
        "KAFKA_BOOTSTRAP_SERVERS", "b1:9093", "SCHEMA_REGISTRY_URL", "http://r:8081",
        "KAFKA_SECURITY_PROTOCOL", "SASL_SSL", "KAFKA_SASL_USERNAME", "router", "KAFKA_SASL_PASSWORD", "pw",
        "KAFKA_SSL_TRUSTSTORE_LOCATION", "/etc/ca.jks", "ZEROLAYER_TOPIC_PREFIX", "prod."));

    assertThat(settings.clientProperties())
        .containsEntry("bootstrap.servers", "b1:9093")
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("ssl.truststore.location", "/etc/ca.jks");
    assertThat((String) settings.clientProperties().get("sasl.jaas.config"))
        .contains("ScramLoginModule").contains("username=\"router\"");
    assertThat(settings.catalogue().prefix()).isEqualTo("prod.");
  }

  @Test
  void shouldPassAPasswordWithQuotesBackslashesAndSpacesToKafkaAsItIs() {
    final String password = "p\"a ss\\w;ord\"";
    final ClusterSettings settings = ClusterSettings.fromEnvironment(Map.of(
        "KAFKA_BOOTSTRAP_SERVERS", "b1:9093", "SCHEMA_REGISTRY_URL", "http://r:8081",
        "KAFKA_SECURITY_PROTOCOL", "SASL_SSL", "KAFKA_SASL_USERNAME", "token-buffer", "KAFKA_SASL_PASSWORD", password));

    final Map<String, Object> options = jaasOptions(settings);

    assertThat(options.get("password")).isEqualTo(password);
    assertThat(options.get("username")).isEqualTo("token-buffer");
  }

  @Test
  void shouldLogInWithOauthBearerThroughKafkasOwnCallbackHandler() {
    final ClusterSettings settings = ClusterSettings.fromEnvironment(Map.of(
        "KAFKA_BOOTSTRAP_SERVERS", "b1:9093", "SCHEMA_REGISTRY_URL", "http://r:8081",
        "KAFKA_SECURITY_PROTOCOL", "SASL_SSL", "KAFKA_SASL_MECHANISM", "OAUTHBEARER",
        "KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL", "https://idp.example/token",
        "KAFKA_SASL_OAUTHBEARER_CLIENT_ID", "router", "KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET", "s3\"cret",
        "KAFKA_SASL_OAUTHBEARER_SCOPE", "kafka"));

    assertThat(settings.clientProperties())
        .containsEntry("sasl.mechanism", "OAUTHBEARER")
        .containsEntry("sasl.oauthbearer.token.endpoint.url", "https://idp.example/token")
        .containsEntry("sasl.login.callback.handler.class",
            "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler");
    assertThat(jaasOptions(settings)).containsEntry("clientId", "router").containsEntry("clientSecret", "s3\"cret")
        .containsEntry("scope", "kafka");
  }

  @Test
  void shouldTakeMutualTlsKeyPasswordAndStoreTypes() {
    final ClusterSettings settings = ClusterSettings.fromEnvironment(Map.of(
        "KAFKA_BOOTSTRAP_SERVERS", "b1:9093", "SCHEMA_REGISTRY_URL", "http://r:8081", "KAFKA_SECURITY_PROTOCOL", "SSL",
        "KAFKA_SSL_KEYSTORE_LOCATION", "/etc/router.p12", "KAFKA_SSL_KEYSTORE_TYPE", "PKCS12",
        "KAFKA_SSL_KEY_PASSWORD", "k", "KAFKA_SSL_TRUSTSTORE_TYPE", "PEM"));

    assertThat(settings.clientProperties())
        .containsEntry("ssl.keystore.type", "PKCS12")
        .containsEntry("ssl.key.password", "k")
        .containsEntry("ssl.truststore.type", "PEM")
        .doesNotContainKey("sasl.jaas.config");
  }

  /** The options of the JAAS line, as Kafka's own parser reads them. */
  private static Map<String, Object> jaasOptions(final ClusterSettings settings) {
    final String jaas = (String) settings.clientProperties().get("sasl.jaas.config");
    return new HashMap<>(JaasContext.loadClientContext(Map.of("sasl.jaas.config", new Password(jaas)))
        .configurationEntries().get(0).getOptions());
  }

  @Test
  void shouldTrustAnHttpsRegistryThroughItsOwnTruststoreOnlyWhenGivenOne() {
    final ClusterSettings settings = ClusterSettings.fromEnvironment(Map.of(
        "KAFKA_BOOTSTRAP_SERVERS", "b:9093", "SCHEMA_REGISTRY_URL", "https://r:8443",
        "SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION", "/etc/zerolayer/registry-trust.jks",
        "SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD", "changeit", "SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE", "jks"));

    assertThat(settings.serdes().tls()).isEqualTo(new RegistryTls("/etc/zerolayer/registry-trust.jks", "changeit",
        "JKS"));
    assertThat(ClusterSettings.fromEnvironment(Map.of("KAFKA_BOOTSTRAP_SERVERS", "b:9093",
        "SCHEMA_REGISTRY_URL", "https://r:8443")).serdes().tls()).isNull();
    assertThat(SerdeConfig.from(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "https://r:8443",
        RegistryTls.TRUSTSTORE_LOCATION, "/t.p12", RegistryTls.TRUSTSTORE_PASSWORD, "pw")).tls())
        .isEqualTo(new RegistryTls("/t.p12", "pw", "PKCS12"));
    assertThatThrownBy(() -> new RegistryTls("/t.pem", "pw", "PEM"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PKCS12 or JKS");
    assertThatThrownBy(() -> new RegistryTls("/no/such/store.p12", "pw", null).sslContext())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(RegistryTls.TRUSTSTORE_LOCATION);
  }

  @Test
  void shouldSayWhichVariableIsMissingAndHowToSetIt() {
    assertThatThrownBy(() -> ClusterSettings.fromEnvironment(Map.of("SCHEMA_REGISTRY_URL", "http://r")))
        .hasMessageContaining("KAFKA_BOOTSTRAP_SERVERS is not set")
        .hasMessageContaining("KAFKA_BOOTSTRAP_SERVERS=");
  }
}
