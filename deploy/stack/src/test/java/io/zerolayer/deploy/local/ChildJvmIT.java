package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zerolayer.deploy.local.fixtures.FailAtStartup;
import io.zerolayer.deploy.local.fixtures.SleepForever;
import io.zerolayer.deploy.local.fixtures.StartChildAndWait;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ChildJvmIT {

  @TempDir
  Path workDir;

  @Test
  void shouldRunTheChildsShutdownHooksAndLeaveNoProcessWhenStopped() throws IOException {
    final ChildJvm child = ChildJvm.start(spec("sleeper", SleepForever.class), workDir);
    await().atMost(Duration.ofSeconds(30)).until(() -> log(child).contains(SleepForever.READY));

    child.stop();

    assertThat(ProcessHandle.of(child.pid()).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(log(child)).contains(SleepForever.HOOK_RAN);
  }

  @Test
  void shouldStopTheChildGracefullyWhenItsParentIsTerminatedLikeCtrlC() throws Exception {
    final Process parent = startParent();
    try {
      final ProcessHandle child = ProcessHandle.of(childPid(parent)).orElseThrow();
      try {
        await().atMost(Duration.ofSeconds(30)).until(() -> sleeperLog().contains(SleepForever.READY));

        parent.destroy();

        assertThat(parent.waitFor(30, TimeUnit.SECONDS)).isTrue();
        child.onExit().get(30, TimeUnit.SECONDS);
        assertThat(sleeperLog()).contains(SleepForever.HOOK_RAN).doesNotContain("ParentGuard: parent process");
      } finally {
        child.destroyForcibly();
      }
    } finally {
      parent.destroyForcibly();
    }
  }

  @Test
  void shouldEndTheChildWhenItsParentIsKilledWithoutRunningShutdownHooks() throws Exception {
    final Process parent = startParent();
    try {
      final ProcessHandle child = ProcessHandle.of(childPid(parent)).orElseThrow();
      try {
        parent.destroyForcibly().waitFor();

        child.onExit().get(30, TimeUnit.SECONDS);
        assertThat(child.isAlive()).isFalse();
        assertThat(sleeperLog()).contains("ParentGuard: parent process");
      } finally {
        child.destroyForcibly();
      }
    } finally {
      parent.descendants().forEach(ProcessHandle::destroyForcibly);
      parent.destroyForcibly();
    }
  }

  @Test
  void shouldFailFastWithTheFixTheLogFileAndItsLastLinesWhenTheChildDiesAtStartup() {
    final ChildJvm child = ChildJvm.start(spec("failing", FailAtStartup.class), workDir);

    assertThatThrownBy(() -> StartupWait.until("failing child", child, Duration.ofSeconds(60), () -> false,
        "free the port"))
        .isInstanceOf(LocalStackException.class)
        .hasMessageContaining("failing child exited with code 1 while starting.")
        .hasMessageContaining("Fix: free the port")
        .hasMessageContaining("Log: " + workDir.resolve("failing.log").toAbsolutePath())
        .hasMessageContaining("| starting")
        .hasMessageContaining(FailAtStartup.CAUSE);
    child.stop();
  }

  private static JvmSpec spec(final String name, final Class<?> mainClass) {
    final List<Path> classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .map(Path::of)
        .toList();
    return new JvmSpec(name, mainClass.getName(), List.of(), classpath, "64m", Map.of());
  }

  private Process startParent() throws IOException {
    return new ProcessBuilder(javaLauncher(), "-cp", System.getProperty("java.class.path"),
        StartChildAndWait.class.getName(), workDir.toString())
        .redirectError(workDir.resolve("parent.err").toFile())
        .start();
  }

  private String sleeperLog() throws IOException {
    return Files.readString(workDir.resolve("sleeper.log"));
  }

  private static long childPid(final Process parent) throws IOException {
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
      return Long.parseLong(out.readLine().substring(StartChildAndWait.PID_PREFIX.length()));
    }
  }

  private static String log(final ChildJvm child) throws IOException {
    return Files.readString(child.logFile());
  }

  private static String javaLauncher() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
