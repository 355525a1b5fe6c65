package io.zerolayer.deploy.acls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.runtime.tenant.Tenant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

class AccessPlanTest {

  private final AccessPlan plan = new AccessPlan(new TopicCatalogue("acme-"), AccessPlan.defaultPrincipals());

  @Test
  void shouldGiveTelemetryIngestOnlyWriteOnTheTelemetryAndPrefixCacheEventTopics() {
    assertThat(describe(plan.app(App.TELEMETRY_INGEST, "User:ingest")))
        .containsExactly("User:ingest WRITE TOPIC LITERAL acme-gpu.telemetry.v1",
            "User:ingest WRITE TOPIC LITERAL acme-instance.kv-events.v1");
  }

  @Test
  void shouldGiveAStreamsAppItsTopicsAndItsOwnInternalTopicsGroupAndTransactionsAlone() {
    final List<String> tokenBuffer = describe(plan.app(App.TOKEN_BUFFER, "User:tb"));

    assertThat(tokenBuffer)
        .contains("User:tb READ TOPIC LITERAL acme-inference.tokens.v1",
            "User:tb WRITE TOPIC LITERAL acme-inference.responses.v1",
            "User:tb ALL TOPIC PREFIXED acme-zerolayer-token-buffer",
            "User:tb READ GROUP LITERAL acme-zerolayer-token-buffer",
            "User:tb WRITE TRANSACTIONAL_ID PREFIXED acme-zerolayer-token-buffer")
        .doesNotContain("User:tb WRITE TOPIC LITERAL acme-inference.tokens.v1",
            "User:tb READ TOPIC LITERAL acme-inference.requests.v1");
  }

  @Test
  void shouldFenceRoutersByTheirTransactionalIdsAndWorkersByTheirGroups() {
    assertThat(describe(plan.app(App.ROUTER, "User:router")))
        .contains("User:router WRITE TRANSACTIONAL_ID PREFIXED zerolayer-acme-router-",
            "User:router READ GROUP LITERAL acme-zerolayer-router",
            "User:router READ TOPIC LITERAL acme-inference.requests.v1");
    assertThat(describe(plan.app(App.WORKER, "User:worker")))
        .contains("User:worker READ GROUP PREFIXED zerolayer-worker-",
            "User:worker WRITE TOPIC LITERAL acme-inference.tokens.v1")
        .noneMatch(line -> line.contains("requests") || line.contains("responses"));
  }

  @Test
  void shouldLetATenantWithReplyTopicsReadThemAloneAndTheSharedStreamsOnlyWithout() {
    final Tenant own = new Tenant("a", Tenant.hashKey("k"), 1, 1, 1, "acme-replies-a-");
    final Tenant shared = new Tenant("b", Tenant.hashKey("k"), 1, 1, 1);

    assertThat(describe(plan.tenant(own, "User:a")))
        .containsExactlyInAnyOrder("User:a WRITE TOPIC LITERAL acme-inference.requests.v1",
            "User:a READ TOPIC PREFIXED acme-replies-a-",
            "User:token-buffer WRITE TOPIC PREFIXED acme-replies-a-",
            "User:router DESCRIBE TOPIC PREFIXED acme-replies-a-");
    assertThat(describe(plan.tenant(shared, "User:b")))
        .contains("User:b READ TOPIC LITERAL acme-inference.responses.v1",
            "User:b READ TOPIC LITERAL acme-inference.tokens.v1");
  }

  @Test
  void shouldPlanEveryAppGivenAPrincipalAndRefuseAPrincipalThatIsNotAUser() {
    final AccessPlan two = new AccessPlan(new TopicCatalogue(""), Map.of(App.GATEWAY, "User:gw",
        App.TELEMETRY_INGEST, "User:ti"));

    assertThat(two.apps()).extracting(binding -> binding.entry().principal()).containsOnly("User:gw", "User:ti");
    assertThatThrownBy(() -> plan.app(App.GATEWAY, "gateway"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("User:<name>");
    assertThat(plan.apps()).allMatch(binding -> binding.pattern().resourceType() != ResourceType.CLUSTER
        && binding.entry().operation() != AclOperation.ALTER && binding.pattern().patternType() != PatternType.MATCH);
  }

  private static List<String> describe(final List<AclBinding> bindings) {
    return bindings.stream().map(binding -> binding.entry().principal() + " " + binding.entry().operation() + " "
        + binding.pattern().resourceType() + " " + binding.pattern().patternType() + " " + binding.pattern().name())
        .toList();
  }
}
