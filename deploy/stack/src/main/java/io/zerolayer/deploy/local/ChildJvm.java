package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import io.zerolayer.deploy.broker.ParentGuard;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started by this one, run under {@link ParentGuard} so that it ends when this JVM dies, with
 * its stdout and stderr in {@code <workDir>/<name>.log}, in a session of its own. A shutdown hook
 * stops it when this JVM exits (Ctrl-C included).
 */
public final class ChildJvm implements AutoCloseable {

  private static final Duration GRACE = Duration.ofSeconds(15);
  private static final int TAIL_LINES = 40;
  private static final Path SETSID = Path.of("/usr/bin/setsid");

  private final String name;
  private final Process process;
  private final Path logFile;
  private final Thread shutdownHook;

  private ChildJvm(final String name, final Process process, final Path logFile) {
    this.name = name;
    this.process = process;
    this.logFile = logFile;
    this.shutdownHook = new Thread(this::terminate, "stop-" + name);
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts the child; it runs until {@link #stop()}, until it exits, or until this JVM ends. */
  public static ChildJvm start(final JvmSpec spec, final Path workDir) {
    return start(spec, workDir, Map.of());
  }

  /**
   * As {@link #start(JvmSpec, Path)}, with {@code environment} added to this JVM's environment
   * (the project's apps read their settings from there).
   */
  public static ChildJvm start(final JvmSpec spec, final Path workDir, final Map<String, String> environment) {
    requireNonNull(spec, "spec");
    requireNonNull(workDir, "workDir");
    requireNonNull(environment, "environment");
    final Path logFile = logFile(spec.name(), workDir);
    final List<String> command = inOwnSession(spec.commandLine(javaLauncher(), parentGuardLocation(),
        ProcessHandle.current().pid()));
    try {
      Files.createDirectories(workDir);
      Files.writeString(logFile, "# " + String.join(" ", command) + System.lineSeparator(),
          StandardCharsets.UTF_8);
      final ProcessBuilder builder = new ProcessBuilder(command)
          .directory(workDir.toFile())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
      builder.environment().putAll(environment);
      final Process process = builder.start();
      process.getOutputStream().close();
      return new ChildJvm(spec.name(), process, logFile);
    } catch (final IOException e) {
      throw new LocalStackException("Cannot start " + spec.name() + " (" + command.get(0) + "): "
          + e.getMessage() + ". Check that the work dir " + workDir + " is writable and that Java is installed.",
          e);
    }
  }

  /**
   * A terminal's Ctrl-C signals its whole foreground process group. A broker or registry in that
   * group would die at once, before the apps that still talk to it have stopped, and each app
   * would then wait out its close timeout against a broker that is gone. So where setsid(1) is
   * there, the child gets a session of its own and only this JVM stops it, in its caller's order.
   */
  private static List<String> inOwnSession(final List<String> command) {
    if (!Files.isExecutable(SETSID)) {
      return command;
    }
    final List<String> wrapped = new ArrayList<>(List.of(SETSID.toString(), "--wait"));
    wrapped.addAll(command);
    return wrapped;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path logFile() {
    return logFile;
  }

  /** The file that holds the stdout and stderr of a child named {@code name} started in {@code workDir}. */
  static Path logFile(final String name, final Path workDir) {
    return workDir.toAbsolutePath().resolve(name + ".log");
  }

  /** Waits for the child to exit; returns its exit code, or empty if it still runs after the timeout. */
  public OptionalInt awaitExit(final Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
          ? OptionalInt.of(process.exitValue())
          : OptionalInt.empty();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalStackException("Interrupted while waiting for " + name, e);
    }
  }

  /** An error about this child: the problem, the fix, the log file and its last lines. */
  public LocalStackException failure(final String problem, final String fix) {
    final String nl = System.lineSeparator();
    return new LocalStackException(problem + nl + "  Fix: " + fix + nl + "  Log: " + logFile + nl
        + LogTail.describe(logFile, TAIL_LINES));
  }

  /**
   * Stops the child and its descendants: SIGTERM (so its shutdown hooks run), then, after 15 s,
   * SIGKILL. Returns when they are gone. Calling it again does nothing.
   */
  public void stop() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (final IllegalStateException e) {
      // This JVM is shutting down and the hook runs (or ran) terminate() anyway.
    }
    terminate();
  }

  /**
   * Kills the child and its descendants as {@code kill -9} does, with no chance to clean up, and
   * waits until they are gone.
   */
  public void kill() {
    stopOnlyWhenAsked();
    final List<ProcessHandle> descendants = process.descendants().toList();
    descendants.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    descendants.forEach(handle -> handle.onExit().join());
    awaitQuietly(GRACE);
  }

  /**
   * Leaves stopping to the caller, who closes things in its own order (apps before the broker
   * they use). The child still ends with this JVM: ParentGuard sees the parent go.
   */
  public void stopOnlyWhenAsked() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (final IllegalStateException e) {
      // Already shutting down: the hook stops the child.
    }
  }

  @Override
  public void close() {
    stop();
  }

  private synchronized void terminate() {
    if (!process.isAlive()) {
      return;
    }
    final List<ProcessHandle> descendants = process.descendants().toList();
    process.destroy();
    descendants.forEach(ProcessHandle::destroy);
    if (awaitQuietly(GRACE).isEmpty()) {
      System.err.println(name + " did not stop within " + GRACE.toSeconds() + " s of SIGTERM; killing it. Log: "
          + logFile);
      process.destroyForcibly();
    }
    descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    awaitQuietly(GRACE);
  }

  private OptionalInt awaitQuietly(final Duration timeout) {
    try {
      return awaitExit(timeout);
    } catch (final LocalStackException e) {
      process.destroyForcibly();
      return OptionalInt.empty();
    }
  }

  private static Path javaLauncher() {
    final Path candidate = Path.of(System.getProperty("java.home"), "bin", "java");
    if (Files.isExecutable(candidate)) {
      return candidate;
    }
    return ProcessHandle.current().info().command().map(Path::of)
        .orElseThrow(() -> new LocalStackException("Cannot find the java launcher under java.home ("
            + candidate + "). Run with a full JDK or JRE."));
  }

  private static Path parentGuardLocation() {
    final CodeSource source = ParentGuard.class.getProtectionDomain().getCodeSource();
    if (source == null) {
      throw new LocalStackException("Cannot tell where " + ParentGuard.class.getName() + " is loaded from; put "
          + "the zerolayer-kafka-broker jar on the classpath.");
    }
    try {
      return Path.of(source.getLocation().toURI());
    } catch (final URISyntaxException e) {
      throw new LocalStackException("Unusable location of " + ParentGuard.class.getName() + ": "
          + source.getLocation(), e);
    }
  }
}
