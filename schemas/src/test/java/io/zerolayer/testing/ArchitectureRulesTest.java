package io.zerolayer.testing;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rules fail when they are broken: fixture modules alpha and beta under {@code archfixture}. */
class ArchitectureRulesTest {

  private static final String FIXTURE = "io.zerolayer.testing.archfixture";
  private final JavaClasses fixture = new ClassFileImporter().importPackages(FIXTURE);

  @Test
  void shouldFailWhenAModuleUsesAnotherModulesInternalPackage() {
    assertThatThrownBy(() -> ArchitectureRules.noOtherModulesInternals(FIXTURE + ".beta").check(fixture))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("UsesHidden")
        .hasMessageContaining("Hidden");
  }

  @Test
  void shouldPassWhenOnlyTheModuleItselfUsesItsInternalPackage() {
    assertThatCode(() -> ArchitectureRules.noOtherModulesInternals(FIXTURE).check(fixture))
        .doesNotThrowAnyException();
  }

  @Test
  void shouldFailWhenDecisionLogicUsesAKafkaType() {
    assertThatThrownBy(() -> ArchitectureRules.decisionLogicWithoutKafka(FIXTURE + ".alpha.internal", Set.of())
        .check(fixture))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Scorer")
        .hasMessageContaining("org.apache.kafka.common.TopicPartition");
  }

  @Test
  void shouldPassWhenTheKafkaUserIsANamedAdapter() {
    assertThatCode(() -> ArchitectureRules.decisionLogicWithoutKafka(FIXTURE + ".alpha.internal", Set.of("Scorer"))
        .check(fixture))
        .doesNotThrowAnyException();
  }
}
