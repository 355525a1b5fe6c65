package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Finds the schema registry's uber-jar, built by the {@code deploy/schema-registry} module, and
 * reads its main class.
 */
final class RegistryJar {

  static final String PROPERTY = "zerolayer.registry.jar";
  static final String ENV = "ZEROLAYER_REGISTRY_JAR";
  static final Path MODULE_POM = Path.of("deploy", "schema-registry", "pom.xml");
  static final Path JAR = Path.of("deploy", "schema-registry", "target", "zerolayer-schema-registry-runner.jar");
  static final String BUILD = "mvn -pl deploy/schema-registry -am package -DskipTests";

  private RegistryJar() {
  }

  /** The jar from the system property, else the environment, else the project tree above the current dir. */
  static Path locate() {
    return locate(System::getProperty, System.getenv(), Path.of("").toAbsolutePath());
  }

  static Path locate(final UnaryOperator<String> systemProperties, final Map<String, String> env,
      final Path currentDir) {
    final Optional<Path> override = Optional.ofNullable(systemProperties.apply(PROPERTY))
        .or(() -> Optional.ofNullable(env.get(ENV)))
        .filter(value -> !value.isBlank())
        .map(Path::of);
    if (override.isPresent()) {
      return requireFile(override.get(), "set by -D" + PROPERTY + " or " + ENV
          + "; point it at the registry's runner jar or unset it to use the project's build");
    }
    final Path root = projectRoot(currentDir).orElseThrow(() -> new LocalStackException(
        "Cannot find the schema registry jar: no directory above " + currentDir + " holds " + MODULE_POM
            + ". Run from inside the Zerolayer project, or set " + ENV + " (or -D" + PROPERTY
            + ") to the path of zerolayer-schema-registry-runner.jar."));
    return requireFile(root.resolve(JAR), "build it with: " + BUILD + " (run in " + root + ")");
  }

  static Optional<Path> projectRoot(final Path from) {
    for (Path dir = from.toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(MODULE_POM))) {
        return Optional.of(dir);
      }
    }
    return Optional.empty();
  }

  /** The Main-Class of the jar's manifest. */
  static String mainClass(final Path jar) {
    try (JarFile file = new JarFile(jar.toFile())) {
      final Manifest manifest = file.getManifest();
      final String main = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
      if (main == null || main.isBlank()) {
        throw new LocalStackException("The registry jar " + jar + " has no Main-Class in its manifest; rebuild it "
            + "with: " + BUILD);
      }
      return main.trim();
    } catch (final IOException e) {
      throw new LocalStackException("Cannot read the registry jar " + jar + " (" + e.getMessage()
          + "); rebuild it with: " + BUILD, e);
    }
  }

  private static Path requireFile(final Path jar, final String fix) {
    if (!Files.isRegularFile(jar)) {
      throw new LocalStackException("The schema registry jar " + jar + " does not exist; " + fix + ".");
    }
    return jar.toAbsolutePath();
  }
}
