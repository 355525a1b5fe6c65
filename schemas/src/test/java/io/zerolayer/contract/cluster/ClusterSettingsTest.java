package io.zerolayer.contract.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
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
  void shouldSayWhichVariableIsMissingAndHowToSetIt() {
    assertThatThrownBy(() -> ClusterSettings.fromEnvironment(Map.of("SCHEMA_REGISTRY_URL", "http://r")))
        .hasMessageContaining("KAFKA_BOOTSTRAP_SERVERS is not set")
        .hasMessageContaining("KAFKA_BOOTSTRAP_SERVERS=");
  }
}
