package io.zerolayer.tokenbuffer;

import io.zerolayer.testing.ArchitectureRules;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

  @Test
  void shouldUseNoOtherModulesInternalPackages() {
    ArchitectureRules.noOtherModulesInternals("io.zerolayer.tokenbuffer").check(ArchitectureRules.mainClasses());
  }

  @Test
  void shouldKeepKafkaOutOfInternalDecisionLogic() {
    ArchitectureRules.decisionLogicWithoutKafka("io.zerolayer.tokenbuffer.internal",
        Set.of("AcceptTokensProcessor", "ApplyDecisionsProcessor", "InputLag", "LiveSequences", "ReplyTopics",
            "SequenceSweeper", "TokenStore"))
        .check(ArchitectureRules.mainClasses());
  }
}
