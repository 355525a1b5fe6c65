package io.zerolayer.heatmap;

import io.zerolayer.testing.ArchitectureRules;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

  @Test
  void shouldUseNoOtherModulesInternalPackages() {
    ArchitectureRules.noOtherModulesInternals("io.zerolayer.heatmap").check(ArchitectureRules.mainClasses());
  }

  @Test
  void shouldKeepKafkaOutOfInternalDecisionLogic() {
    ArchitectureRules.decisionLogicWithoutKafka("io.zerolayer.heatmap.internal",
        Set.of("FitLatencyModelProcessor", "HeatmapOutputs", "InstanceStatuses", "RecentSlices",
            "ScoreInstancesProcessor", "TelemetryWindows", "ValidateTelemetryProcessor", "ZoneReporter"))
        .check(ArchitectureRules.mainClasses());
  }
}
