package io.zerolayer.deploy.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerRuntimeTest {

  @Test
  void shouldListOnlyJarsThatExistInTheLocalRepository() {
    final List<Path> classpath = BrokerRuntime.classpath();

    assertThat(classpath).isNotEmpty().allMatch(Files::isRegularFile);
    assertThat(classpath).anyMatch(path -> path.getFileName().toString().startsWith("kafka_2.13-"));
    assertThat(classpath).anyMatch(path -> path.getFileName().toString().startsWith("log4j-slf4j2-impl-"));
  }

  @Test
  void shouldLoadTheBrokerAndStorageToolMainClassesFromTheClasspath() throws Exception {
    final URL[] urls = BrokerRuntime.classpath().stream().map(BrokerRuntimeTest::url).toArray(URL[]::new);
    try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
      assertThat(loader.loadClass(BrokerRuntime.KAFKA_MAIN_CLASS).getMethod("main", String[].class)).isNotNull();
      assertThat(loader.loadClass(BrokerRuntime.STORAGE_TOOL_MAIN_CLASS).getMethod("main", String[].class))
          .isNotNull();
    }
  }

  @Test
  void shouldShipTheBrokerLoggingConfiguration() {
    assertThat(BrokerRuntime.class.getClassLoader().getResource(BrokerRuntime.LOG_CONFIG_RESOURCE)).isNotNull();
  }

  @Test
  void shouldTakeAJarMissingFromTheRepositoryFromTheLibDirectory(@TempDir final Path dir) throws Exception {
    final Path present = Files.createFile(dir.resolve("present-1.0.jar"));
    final Path lib = Files.createDirectories(dir.resolve("kafka"));
    final Path shipped = Files.createFile(lib.resolve("shipped-2.0.jar"));

    assertThat(BrokerRuntime.resolve(List.of(present, dir.resolve("repo").resolve("shipped-2.0.jar")),
        Optional.of(lib))).containsExactly(present, shipped);
  }

  @Test
  void shouldNameAJarFoundNowhereAndTheFix(@TempDir final Path dir) {
    assertThatThrownBy(() -> BrokerRuntime.resolve(List.of(dir.resolve("gone-1.0.jar")), Optional.of(dir)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("gone-1.0.jar").hasMessageContaining(BrokerRuntime.LIB_ENV);
  }

  @Test
  void shouldSplitAClasspathAndIgnoreBlankEntries() {
    final String sep = java.io.File.pathSeparator;

    assertThat(BrokerRuntime.parse(" /a.jar" + sep + sep + "/b.jar\n"))
        .containsExactly(Path.of("/a.jar"), Path.of("/b.jar"));
  }

  private static URL url(final Path path) {
    try {
      return path.toUri().toURL();
    } catch (final java.net.MalformedURLException e) {
      throw new IllegalArgumentException(path.toString(), e);
    }
  }
}
