package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistryJarTest {

  @TempDir
  Path root;

  @Test
  void shouldFindTheJarOfTheProjectAboveTheCurrentDirectory() throws IOException {
    Files.createDirectories(root.resolve(RegistryJar.MODULE_POM).getParent());
    Files.createFile(root.resolve(RegistryJar.MODULE_POM));
    final Path jar = jar(root.resolve(RegistryJar.JAR), "app.Main");
    final Path currentDir = Files.createDirectories(root.resolve("deploy/stack"));

    assertThat(RegistryJar.locate(key -> null, Map.of(), currentDir)).isEqualTo(jar);
  }

  @Test
  void shouldPreferTheSystemPropertyOverTheEnvironment() throws IOException {
    final Path fromProperty = jar(root.resolve("p.jar"), "app.Main");
    final Path fromEnv = jar(root.resolve("e.jar"), "app.Main");

    assertThat(RegistryJar.locate(key -> RegistryJar.PROPERTY.equals(key) ? fromProperty.toString() : null,
        Map.of(RegistryJar.ENV, fromEnv.toString()), root)).isEqualTo(fromProperty);
    assertThat(RegistryJar.locate(key -> null, Map.of(RegistryJar.ENV, fromEnv.toString()), root))
        .isEqualTo(fromEnv);
  }

  @Test
  void shouldTellHowToBuildTheJarWhenTheProjectHasNotBuiltIt() throws IOException {
    Files.createDirectories(root.resolve(RegistryJar.MODULE_POM).getParent());
    Files.createFile(root.resolve(RegistryJar.MODULE_POM));

    assertThatThrownBy(() -> RegistryJar.locate(key -> null, Map.of(), root))
        .isInstanceOf(LocalStackException.class)
        .hasMessageContaining("does not exist")
        .hasMessageContaining("mvn -pl deploy/schema-registry -am package -DskipTests");
  }

  @Test
  void shouldNameTheOverrideWhenItPointsNowhere() {
    assertThatThrownBy(() -> RegistryJar.locate(key -> null, Map.of(RegistryJar.ENV, "/nowhere.jar"), root))
        .isInstanceOf(LocalStackException.class)
        .hasMessageContaining("/nowhere.jar")
        .hasMessageContaining(RegistryJar.ENV);
  }

  @Test
  void shouldReadTheMainClassFromTheManifest() throws IOException {
    assertThat(RegistryJar.mainClass(jar(root.resolve("r.jar"), "io.quarkus.runner.GeneratedMain")))
        .isEqualTo("io.quarkus.runner.GeneratedMain");
  }

  private static Path jar(final Path path, final String mainClass) throws IOException {
    Files.createDirectories(path.getParent());
    final Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
    try (OutputStream out = Files.newOutputStream(path); JarOutputStream jar = new JarOutputStream(out, manifest)) {
      jar.flush();
    }
    return path.toAbsolutePath();
  }
}
