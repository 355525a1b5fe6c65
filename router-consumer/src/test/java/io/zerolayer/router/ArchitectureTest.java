package io.zerolayer.router;

import io.zerolayer.testing.ArchitectureRules;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

  @Test
  void shouldUseNoOtherModulesInternalPackages() {
    ArchitectureRules.noOtherModulesInternals("io.zerolayer.router").check(ArchitectureRules.mainClasses());
  }

  @Test
  void shouldKeepKafkaOutOfPolicyDecisionLogic() {
    ArchitectureRules.decisionLogicWithoutKafka("io.zerolayer.router.policy", Set.of())
        .check(ArchitectureRules.mainClasses());
  }

  @Test
  void shouldKeepKafkaOutOfTenantDecisionLogic() {
    ArchitectureRules.decisionLogicWithoutKafka("io.zerolayer.router.tenant", Set.of())
        .check(ArchitectureRules.mainClasses());
  }

  @Test
  void shouldKeepKafkaOutOfInternalDecisionLogic() {
    ArchitectureRules.decisionLogicWithoutKafka("io.zerolayer.router.internal",
        Set.of("HeatmapView", "HoldsFeed", "RoutingTransaction", "RecordWriter", "ReplyTopicDirectory", "RequestLookup",
            "RequestRouter", "StallRouter"))
        .check(ArchitectureRules.mainClasses());
  }
}
