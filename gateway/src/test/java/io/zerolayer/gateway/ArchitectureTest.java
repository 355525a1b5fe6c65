package io.zerolayer.gateway;

import io.zerolayer.testing.ArchitectureRules;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

  @Test
  void shouldUseNoOtherModulesInternalPackages() {
    ArchitectureRules.noOtherModulesInternals("io.zerolayer.gateway").check(ArchitectureRules.mainClasses());
  }

  @Test
  void shouldKeepKafkaOutOfTheDialectsAndTheRelay() {
    ArchitectureRules.decisionLogicWithoutKafka("io.zerolayer.gateway.internal", Set.of("Cancels", "ModelDirectory"))
        .check(ArchitectureRules.mainClasses());
  }
}
