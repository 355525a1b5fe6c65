package io.zerolayer.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.router.policy.ServiceObjective;
import io.zerolayer.runtime.tenant.TenantSignature;
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
  void shouldRankAgainstAFirstTokenWithinASecondAndFiftyMsATokenUnlessTold() {
    assertThat(new RouterConfig(Map.of()).serviceObjective()).isEqualTo(ServiceObjective.DEFAULT);
    assertThat(RouterConfig.fromEnvironment(Map.of("ZEROLAYER_ROUTER_OBJECTIVE_TTFT_MS", "300",
        "ZEROLAYER_ROUTER_OBJECTIVE_TPOT_MS", "25")).serviceObjective()).isEqualTo(new ServiceObjective(300, 25));
  }

  @Test
  void shouldRefuseAnUnknownPolicyAndListTheKnownOnes() {
    assertThatThrownBy(() -> new RouterConfig(Map.of(RouterConfig.POLICY, "nginx")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RouterConfig.POLICY)
        .hasMessageContaining("zerolayer, round-robin, least-outstanding, p2c, epp");
  }

  @Test
  void shouldNameARouterAfterItsHostAndPortByDefaultSoThatARestartFencesItsPredecessor() {
    final String id = new RouterConfig(Map.of(RouterConfig.HTTP_PORT, 8090)).routerId();

    assertThat(id).startsWith("router-").endsWith("-8090");
    assertThat(new RouterConfig(Map.of(RouterConfig.HTTP_PORT, 8090)).routerId()).isEqualTo(id);
    assertThat(new RouterConfig(Map.of(RouterConfig.HTTP_PORT, 0)).routerId())
        .as("a port chosen at start is no identity").isNotEqualTo(new RouterConfig(Map.of(RouterConfig.HTTP_PORT, 0))
            .routerId());
    assertThat(new RouterConfig(Map.of(RouterConfig.ROUTER_ID, "router-a")).routerId()).isEqualTo("router-a");
  }

  @Test
  void shouldServeHttpOnThisMachineOnlyUnlessToldToBindEveryInterface() {
    assertThat(new RouterConfig(Map.of()).httpHost()).isEqualTo("127.0.0.1");
    assertThat(RouterConfig.fromEnvironment(Map.of("ZEROLAYER_ROUTER_HTTP_HOST", "0.0.0.0")).httpHost())
        .isEqualTo("0.0.0.0");
  }

  @Test
  void shouldVerifyNoGatewaySignatureWhenNoSecretIsSet() {
    assertThat(new RouterConfig(Map.of()).gatewaySignature()).isEmpty();
  }

  @Test
  void shouldVerifyGatewaySignaturesWithTheSecretFromItsEnvironmentVariable() {
    final String secret = "0123456789abcdef0123456789abcdef";
    final RouterConfig config = RouterConfig.fromEnvironment(Map.of("ZEROLAYER_ROUTER_GATEWAY_SIGNING_SECRET",
        secret));

    final String signature = new TenantSignature(secret).sign("s1", "acme", 5);

    assertThat(config.gatewaySignature()).hasValueSatisfying(verifier ->
        assertThat(verifier.verifies(signature, "s1", "acme", 5)).isTrue());
  }

  @Test
  void shouldRefuseAGatewaySecretShorterThan32BytesWithoutShowingIt() {
    assertThatThrownBy(() -> new RouterConfig(Map.of(RouterConfig.GATEWAY_SIGNING_SECRET, "too-short")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(RouterConfig.GATEWAY_SIGNING_SECRET)
        .hasMessageContaining("at least 32")
        .hasMessageNotContaining("too-short");
  }
}
