package io.zerolayer.router.policy;

import static io.zerolayer.router.policy.Rows.REQUEST;
import static io.zerolayer.router.policy.Rows.heatmap;
import static io.zerolayer.router.policy.Rows.loaded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class RoutingPoliciesTest {

  static final List<String> NAMES = RoutingPolicies.NAMES;

  @Test
  void shouldOfferZerolayerAndTheFiveBaselines() {
    assertThat(RoutingPolicies.NAMES)
        .containsExactly("zerolayer", "round-robin", "least-outstanding", "p2c", "epp", "prefix-aware");
    assertThat(RoutingPolicies.DEFAULT).isEqualTo("zerolayer");
    assertThat(RoutingPolicies.named(RoutingPolicies.DEFAULT)).isInstanceOf(LatencyAwarePolicy.class);
  }

  @ParameterizedTest
  @FieldSource("NAMES")
  void shouldMakeAPolicyThatCarriesItsName(final String name) {
    assertThat(RoutingPolicies.named(name).name()).isEqualTo(name);
  }

  @ParameterizedTest
  @FieldSource("NAMES")
  void shouldMakeANewPolicyOnEveryCall(final String name) {
    assertThat(RoutingPolicies.named(name)).isNotSameAs(RoutingPolicies.named(name));
  }

  @ParameterizedTest
  @FieldSource("NAMES")
  void shouldFillPredictedLatencyWithTheSharedPredictor(final String name) {
    final InstanceScore idle = loaded("idle", 1, 0);
    final InstanceScore queued = loaded("queued", 2, 3);
    final Heatmap heatmap = heatmap(idle, queued);

    final List<Candidate> ranked = RoutingPolicies.named(name).rank(REQUEST, heatmap);

    assertThat(ranked).isNotEmpty().allSatisfy(candidate -> assertThat(candidate.predictedLatencyMs())
        .isEqualTo(LatencyPredictor.latencyMs(heatmap, heatmap.row(candidate.instanceId()), REQUEST)));
  }

  @Test
  void shouldListTheKnownNamesWhenTheNameIsUnknown() {
    assertThatThrownBy(() -> RoutingPolicies.named("random"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'random'")
        .hasMessageContaining("zerolayer, round-robin, least-outstanding, p2c, epp");
  }
}
