package io.zerolayer.runtime;

import io.zerolayer.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

  @Test
  void shouldUseNoOtherModulesInternalPackages() {
    ArchitectureRules.noOtherModulesInternals(null).check(ArchitectureRules.mainClasses());
  }
}
