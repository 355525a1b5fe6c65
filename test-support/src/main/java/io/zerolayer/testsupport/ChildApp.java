package io.zerolayer.testsupport;

import static org.awaitility.Awaitility.await;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.runtime.EnvironmentConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One of the project's apps run by its main class in a JVM of its own, on the tests' classpath,
 * for the tests that kill a process. Its output goes to a log file that a failure quotes, and its
 * HTTP server listens on a port chosen here, so that {@code /ready} can be asked.
 */
public final class ChildApp implements AutoCloseable {

  private static final int LOG_LINES_QUOTED = 40;

  private final String name;
  private final Process process;
  private final Path log;
  private final int port;

  private ChildApp(final String name, final Process process, final Path log, final int port) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * Starts {@code mainClass} against the cluster and catalogue of {@code cluster}; its output is
   * appended to {@code log}, so that a restart on the same log keeps both runs. Settings reach the
   * child as the environment variables its config classes read them from. The child compiles with
   * C1 only: it lives for seconds, often restarted beside others, and C2's compiling would take
   * the cores the rest of the test needs.
   *
   * @param portKey the app's HTTP port setting (a config key), set to a free port
   * @param appSettings the app's own settings, by config key
   */
  public static ChildApp start(final Class<?> mainClass, final ClusterSettings cluster, final Path log,
      final String portKey, final Map<String, ?> appSettings) throws IOException {
    return start(mainClass.getSimpleName(), List.of(javaCommand(), "-XX:TieredStopAtLevel=1",
        "-Dorg.slf4j.simpleLogger.log.io.zerolayer=info",
        "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=warn", "-cp", System.getProperty("java.class.path"),
        mainClass.getName()), cluster, log, portKey, appSettings);
  }

  /**
   * As {@link #start(Class, ClusterSettings, Path, String, Map)}, run by {@code command} (a
   * launcher script, say) instead of this JVM's classpath.
   */
  public static ChildApp start(final String name, final List<String> command, final ClusterSettings cluster,
      final Path log, final String portKey, final Map<String, ?> appSettings) throws IOException {
    final int port = freePort();
    final ProcessBuilder builder = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    appSettings.forEach((key, value) -> builder.environment().put(EnvironmentConfig.variable(key),
        String.valueOf(value)));
    builder.environment().putAll(cluster.environment());
    builder.environment().put(EnvironmentConfig.variable(portKey), Integer.toString(port));
    return new ChildApp(name, builder.start(), log, port);
  }

  /** The java this JVM runs on. */
  public static String javaCommand() {
    return ProcessHandle.current().info().command().orElse("java");
  }

  /** The port of the app's HTTP server. */
  public int port() {
    return port;
  }

  /** Waits until the app answers 200 on {@code /ready}; a timeout quotes the app's log. */
  public void awaitReady(final Duration timeout) {
    final HttpClient http = HttpClient.newHttpClient();
    final HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready")).build();
    try {
      await().atMost(timeout).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
          .until(() -> http.send(ready, HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
    } catch (final ConditionTimeoutException e) {
      throw failure(new AssertionError(name + " (pid " + process.pid()
          + (process.isAlive() ? "" : ", exited with " + process.exitValue()) + ") was not ready within " + timeout,
          e));
    }
  }

  /** Kills the process as {@code kill -9} does and waits until it is gone. */
  public void kill() throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-9", Long.toString(process.pid())).start().waitFor();
    process.waitFor();
  }

  /** {@code cause} with the last lines of the app's log appended, to throw in its place. */
  public AssertionError failure(final Throwable cause) {
    return new AssertionError(cause.getMessage() + "\n--- last lines of " + log + " ---\n" + logTail(), cause);
  }

  private String logTail() {
    try {
      final List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES_QUOTED), lines.size()));
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot read " + log, e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
