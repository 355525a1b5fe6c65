package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JvmSpecTest {

  @Test
  void shouldRunTheRealMainClassUnderParentGuardWithTheGuardFirstOnTheClasspath() {
    final JvmSpec spec = new JvmSpec("kafka-broker", "kafka.Kafka", List.of("/w/server.properties"),
        List.of(Path.of("/r/a.jar"), Path.of("/r/b.jar")), "512m", Map.of("b", "2", "a", "1"));

    assertThat(spec.commandLine(Path.of("/jdk/bin/java"), Path.of("/r/guard.jar"), 42)).containsExactly(
        "/jdk/bin/java", "-Xmx512m", "-Djava.awt.headless=true", "-Da=1", "-Db=2", "-Dzerolayer.parent.pid=42",
        "-cp", String.join(File.pathSeparator, "/r/guard.jar", "/r/a.jar", "/r/b.jar"),
        "io.zerolayer.deploy.broker.ParentGuard", "kafka.Kafka", "/w/server.properties");
  }

  @Test
  void shouldResolveRelativeClasspathEntriesNowBecauseTheChildRunsInItsWorkDir() {
    final JvmSpec spec = new JvmSpec("x", "Main", List.of(), List.of(Path.of("target/classes")), "64m", Map.of());

    assertThat(spec.classpath()).containsExactly(Path.of("target/classes").toAbsolutePath());
  }

  @Test
  void shouldRejectANameThatWouldMakeAStrangeLogFileName() {
    assertThatThrownBy(() -> new JvmSpec("../broker", "Main", List.of(), List.of(), "1g", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kebab-case");
  }

  @Test
  void shouldRejectAHeapSizeTheJvmWouldNotAccept() {
    assertThatThrownBy(() -> new JvmSpec("broker", "Main", List.of(), List.of(), "512MB", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("512m or 2g");
  }
}
