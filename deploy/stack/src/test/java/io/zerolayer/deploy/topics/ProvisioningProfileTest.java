package io.zerolayer.deploy.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProvisioningProfileTest {

  @ParameterizedTest
  @ValueSource(strings = {"local", "LOCAL", "Local", "  local "})
  void shouldParseTheLocalProfileIgnoringCaseAndBlanks(final String name) {
    assertThat(ProvisioningProfile.parse(name)).isEqualTo(ProvisioningProfile.LOCAL);
  }

  @Test
  void shouldParseTheProductionProfile() {
    assertThat(ProvisioningProfile.parse("production")).isEqualTo(ProvisioningProfile.PRODUCTION);
  }

  @Test
  void shouldReplicateOnceLocallyAndThreeTimesWithTwoInSyncInProduction() {
    assertThat(ProvisioningProfile.LOCAL.replicationFactor()).isEqualTo((short) 1);
    assertThat(ProvisioningProfile.LOCAL.minInsyncReplicas()).isEqualTo(1);
    assertThat(ProvisioningProfile.PRODUCTION.replicationFactor()).isEqualTo((short) 3);
    assertThat(ProvisioningProfile.PRODUCTION.minInsyncReplicas()).isEqualTo(2);
  }

  @Test
  void shouldNameTheAcceptedValuesWhenTheProfileIsUnknown() {
    assertThatThrownBy(() -> ProvisioningProfile.parse("staging"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown provisioning profile 'staging'; use one of: local, production");
  }

  @Test
  void shouldRejectAMissingProfileName() {
    assertThatThrownBy(() -> ProvisioningProfile.parse(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("use one of: local, production");
  }
}
