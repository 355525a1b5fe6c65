package io.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class RouterConfigTest {

  @Test
  void shouldRouteWithZerolayersPolicyByDefault() {
    assertThat(new RouterConfig(Map.of()).policyName()).isEqualTo("zerolayer");
  }

  @Test
  void shouldTakeThePolicyFromItsEnvironmentVariable() {
    assertThat(RouterConfig.fromEnvironment(Map.of("ZEROLAYER_ROUTER_POLICY", "p2c")).policyName())
        .isEqualTo("p2c");
  }

  @Test
  void shouldRefuseAnUnknownPolicyAndListTheKnownOnes() {
    assertThatThrownBy(() -> new RouterConfig(Map.of(RouterConfig.POLICY, "nginx")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RouterConfig.POLICY)
        .hasMessageContaining("zerolayer, round-robin, least-outstanding, p2c, epp");
  }
}
