package io.zerolayer.contract.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoutingReasonsTest {

  @Test
  void shouldRecogniseEachReasonItWritesAndNoOther() {
    assertThat(RoutingReasons.isTenantOverLimit(RoutingReasons.tenantOverLimit("acme"))).isTrue();
    assertThat(RoutingReasons.isModelNotServed(RoutingReasons.modelNotServed("m", List.of("a", "b")))).isTrue();

    assertThat(RoutingReasons.isTenantOverLimit("no instance can take new work (4 known)")).isFalse();
    assertThat(RoutingReasons.isModelNotServed(RoutingReasons.tenantOverLimit("acme"))).isFalse();
    assertThat(RoutingReasons.isTenantOverLimit(null)).isFalse();
  }

  @Test
  void shouldNameTheModelsThatAreServed() {
    assertThat(RoutingReasons.modelNotServed("gpt-x", List.of("sim-8b", "sim-70b")))
        .isEqualTo("model 'gpt-x' is not served by any instance: ask for one of [sim-8b, sim-70b]");
  }
}
