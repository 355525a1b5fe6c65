package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.cli.ZerolayerCli;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The demo as a newcomer runs it: {@code zerolayer up}, requests answered, then Ctrl-C. */
class DemoShutdownIT {

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void shouldLeaveNoBrokerRegistryOrAppProcessAfterCtrlC() throws Exception {
    final Path workDir = Path.of("target", "demo-it").toAbsolutePath();
    final Process demo = new ProcessBuilder(
        ProcessHandle.current().info().command().orElse("java"),
        "-cp", System.getProperty("java.class.path"),
        ZerolayerCli.class.getName(), "up", "--instances", "2", "--requests", "3", "--work-dir", workDir.toString())
        .redirectErrorStream(true)
        .start();
    final List<String> output = Collections.synchronizedList(new ArrayList<>());
    final CompletableFuture<Void> running = new CompletableFuture<>();
    final Thread follower = new Thread(() -> follow(demo, output, running), "demo-output");
    follower.setDaemon(true);
    follower.start();
    try {
      running.get(3, TimeUnit.MINUTES);
      final List<ProcessHandle> children = demo.descendants().toList();
      assertThat(children).as("broker and registry child JVMs").hasSizeGreaterThanOrEqualTo(2);
      assertThat(output).anyMatch(line -> line.contains("DIRECT"));

      // Ctrl-C
      new ProcessBuilder("kill", "-INT", Long.toString(demo.pid())).start().waitFor();

      assertThat(demo.waitFor(60, TimeUnit.SECONDS)).as("demo exits after Ctrl-C").isTrue();
      for (final ProcessHandle child : children) {
        child.onExit().get(30, TimeUnit.SECONDS);
        assertThat(child.isAlive()).as("child %s still running", child.pid()).isFalse();
      }
    } finally {
      demo.descendants().forEach(ProcessHandle::destroyForcibly);
      demo.destroyForcibly();
    }
  }

  /** Echoes the demo's output until it ends; completes {@code running} once the demo says it is up. */
  private static void follow(final Process demo, final List<String> output, final CompletableFuture<Void> running) {
    try {
      final BufferedReader lines = new BufferedReader(new InputStreamReader(demo.getInputStream(),
          StandardCharsets.UTF_8));
      String line;
      while ((line = lines.readLine()) != null) {
        System.out.println("[demo] " + line);
        output.add(line);
        if (line.startsWith("Running until Ctrl-C")) {
          running.complete(null);
        }
      }
      running.completeExceptionally(new IllegalStateException("demo ended before it was up: " + output));
    } catch (final IOException e) {
      running.completeExceptionally(e);
    }
  }
}
