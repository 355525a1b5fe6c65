package io.zerolayer.testing;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * The layout rules every module checks of its own classes in its {@code ArchitectureTest}:
 * another module's {@code internal} packages are out of bounds, and decision logic (weights,
 * state machines, selection, latency prediction, stall rules) is plain Java with no Kafka type,
 * apart from the thin adapters a module names.
 */
public final class ArchitectureRules {

  private static final String INTERNAL = "io.zerolayer..internal..";
  private static final String KAFKA = "org.apache.kafka..";

  private ArchitectureRules() {
  }

  /** The classes this module compiles ({@code target/classes}), as the running test's module sees them. */
  public static JavaClasses mainClasses() {
    return classesUnder(Path.of("target", "classes"));
  }

  /** The module's test classes ({@code target/test-classes}), for a module of tests only. */
  public static JavaClasses testClasses() {
    return classesUnder(Path.of("target", "test-classes"));
  }

  private static JavaClasses classesUnder(final Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException(dir.toAbsolutePath() + " does not exist; run the test from its module");
    }
    return new ClassFileImporter().importPath(dir);
  }

  /**
   * No class depends on an {@code internal} package other than those under {@code ownPackage}
   * (the module's root package; {@code null} for a module that owns none).
   */
  public static ArchRule noOtherModulesInternals(final String ownPackage) {
    final DescribedPredicate<JavaClass> internal = resideInAPackage(INTERNAL);
    return noClasses().should().dependOnClassesThat(ownPackage == null ? internal
        : internal.and(not(resideInAPackage(ownPackage + ".."))))
        .as("no class uses another module's internal packages")
        .because("a module's internal package is its own business; other modules use its api");
  }

  /**
   * Classes in {@code decisionPackage} depend on no Kafka type, apart from the Kafka-facing
   * adapters named in {@code adapters} (simple names of top-level classes; their nested classes
   * count as theirs).
   */
  public static ArchRule decisionLogicWithoutKafka(final String decisionPackage, final Set<String> adapters) {
    final DescribedPredicate<JavaClass> adapter = DescribedPredicate.describe("a Kafka adapter " + adapters,
        type -> adapters.contains(topLevelSimpleName(type)));
    return noClasses().that(resideInAPackage(decisionPackage).and(not(adapter)))
        .should().dependOnClassesThat(resideInAPackage(KAFKA))
        .as("decision logic in " + decisionPackage + " uses no Kafka type")
        .because("decision logic is plain Java, unit-tested directly and reused by the simulator;"
            + " only the named adapters face Kafka")
        .allowEmptyShould(false);
  }

  private static String topLevelSimpleName(final JavaClass type) {
    final String name = type.getName().substring(type.getPackageName().length() + 1);
    final int nested = name.indexOf('$');
    return nested < 0 ? name : name.substring(0, nested);
  }
}
