package io.zerolayer.telemetry;

import io.zerolayer.testing.ArchitectureRules;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

  @Test
  void shouldUseNoOtherModulesInternalPackages() {
    ArchitectureRules.noOtherModulesInternals("io.zerolayer.telemetry").check(ArchitectureRules.mainClasses());
  }

  @Test
  void shouldKeepKafkaOutOfInternalDecisionLogic() {
    ArchitectureRules.decisionLogicWithoutKafka("io.zerolayer.telemetry.internal", Set.of())
        .check(ArchitectureRules.mainClasses());
  }
}
