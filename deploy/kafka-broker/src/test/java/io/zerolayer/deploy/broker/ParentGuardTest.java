package io.zerolayer.deploy.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.deploy.broker.fixtures.EchoArgs;
import io.zerolayer.deploy.broker.fixtures.WaitForever;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParentGuardTest {

  @Test
  void shouldRunTheRealMainClassWithTheRemainingArguments() throws Exception {
    final Process guarded = guarded(List.of(), EchoArgs.class.getName(), "a", "b c");

    assertThat(guarded.waitFor()).isZero();
    assertThat(output(guarded)).contains("args=a,b c");
  }

  @Test
  void shouldExitAtOnceWhenTheParentDiedBeforeTheGuardLooked() throws Exception {
    final Process gone = new ProcessBuilder(java(), "-version").start();
    gone.waitFor();

    final Process guarded = guarded(List.of("-D" + ParentGuard.PARENT_PID_PROPERTY + "=" + gone.pid()),
        WaitForever.class.getName());

    assertThat(guarded.waitFor()).isZero();
    assertThat(output(guarded)).contains("parent process " + gone.pid()).contains("is gone");
  }

  @Test
  void shouldExplainItsUsageWithoutAMainClass() throws Exception {
    final Process guarded = guarded(List.of());

    assertThat(guarded.waitFor()).isEqualTo(2);
    assertThat(output(guarded)).contains("Usage:");
  }

  private static Process guarded(final List<String> jvmOptions, final String... args) throws IOException {
    final List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ParentGuard.class.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  private static String output(final Process process) throws IOException {
    return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
