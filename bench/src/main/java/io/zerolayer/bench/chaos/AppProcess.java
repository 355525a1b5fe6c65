package io.zerolayer.bench.chaos;

import static java.util.Objects.requireNonNull;

import io.zerolayer.deploy.local.ChildJvm;
import io.zerolayer.deploy.local.FreePorts;
import io.zerolayer.deploy.local.JvmSpec;
import io.zerolayer.runtime.EnvironmentConfig;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One app run by its main class in a JVM of its own, on this JVM's classpath, with its settings in
 * the environment, so that it can be killed as {@code kill -9} does and started again on the same
 * settings, state directory and port. Each start logs to {@code <name>-<n>.log}.
 */
final class AppProcess implements AutoCloseable {

  private static final Duration POLL = Duration.ofMillis(100);

  private final String name;
  private final AppRole role;
  private final Path dir;
  private final Map<String, String> environment;
  private final int port;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private ChildJvm jvm;
  private int starts;

  private AppProcess(final String name, final AppRole role, final Path dir, final Map<String, String> environment,
      final int port) {
    this.name = name;
    this.role = role;
    this.dir = dir;
    this.environment = environment;
    this.port = port;
  }

  /**
   * Starts the app; it does not wait until the app is ready.
   *
   * @param name kebab-case name of this replica, such as {@code router-1}
   * @param clusterEnvironment the cluster's settings as environment variables
   * @param settings the app's own settings, by config key
   * @param dir where its logs go
   */
  static AppProcess start(final String name, final AppRole role, final Map<String, String> clusterEnvironment,
      final Map<String, ?> settings, final Path dir) {
    requireNonNull(role, "role");
    final int port = FreePorts.pick(1).get(0);
    final Map<String, String> environment = new HashMap<>(clusterEnvironment);
    settings.forEach((key, value) -> environment.put(EnvironmentConfig.variable(key), String.valueOf(value)));
    environment.put(EnvironmentConfig.variable(role.portKey()), Integer.toString(port));
    final AppProcess app = new AppProcess(name, role, dir, Map.copyOf(environment), port);
    app.launch();
    return app;
  }

  private void launch() {
    starts++;
    final List<Path> classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .map(Path::of).toList();
    jvm = ChildJvm.start(new JvmSpec(name + "-" + starts, role.mainClass().getName(), List.of(), classpath, "384m",
        Map.of("org.slf4j.simpleLogger.log.io.zerolayer", "info", "org.slf4j.simpleLogger.log.org.apache.kafka", "warn"),
        List.of("-XX:TieredStopAtLevel=1")),
        dir, environment);
    jvm.stopOnlyWhenAsked();
  }

  String name() {
    return name;
  }

  AppRole role() {
    return role;
  }

  /** Kills the process as {@code kill -9} does, then starts it again on the same settings. */
  void killAndRestart() {
    jvm.kill();
    launch();
  }

  /**
   * Waits until the app answers 200 on {@code /ready}.
   *
   * @throws IllegalStateException when it exits or is not ready in time, with its log's last lines
   */
  void awaitReady(final Duration timeout) throws InterruptedException {
    final HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready"))
        .timeout(Duration.ofSeconds(2)).build();
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!jvm.isAlive()) {
        throw jvm.failure(name + " exited with " + jvm.awaitExit(Duration.ZERO).orElse(-1) + " before it was ready",
            "read its log below");
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (final IOException e) {
        // Not listening yet.
      }
      TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
    }
    throw jvm.failure(name + " was not ready within " + timeout.toSeconds() + " s", "read its log below");
  }

  @Override
  public void close() {
    jvm.stop();
  }
}
