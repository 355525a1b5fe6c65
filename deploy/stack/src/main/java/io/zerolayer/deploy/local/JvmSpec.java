package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import io.zerolayer.deploy.broker.ParentGuard;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What to run in a child JVM.
 *
 * @param name short kebab-case name; the log file is {@code <name>.log}
 * @param mainClass the real main class; {@link ParentGuard} runs it
 * @param args arguments of the real main class
 * @param classpath classpath of the real main class; relative entries are resolved against the
 *     current directory now, since the child runs in its work dir
 * @param maxHeap value of {@code -Xmx}, such as {@code 512m}
 * @param systemProperties {@code -D} settings
 * @param options other options of the java launcher, such as {@code -XX:TieredStopAtLevel=1}
 */
public record JvmSpec(String name, String mainClass, List<String> args, List<Path> classpath, String maxHeap,
    Map<String, String> systemProperties, List<String> options) {

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");
  private static final Pattern HEAP = Pattern.compile("[1-9][0-9]*[kmg]");

  public JvmSpec {
    requireNonNull(name, "name");
    requireNonNull(mainClass, "mainClass");
    requireNonNull(maxHeap, "maxHeap");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("Child JVM name '" + name + "' must be kebab-case");
    }
    if (!HEAP.matcher(maxHeap).matches()) {
      throw new IllegalArgumentException("Heap size '" + maxHeap + "' must look like 512m or 2g");
    }
    args = List.copyOf(args);
    classpath = classpath.stream().map(Path::toAbsolutePath).toList();
    systemProperties = Collections.unmodifiableMap(new TreeMap<>(systemProperties));
    options = List.copyOf(options);
  }

  /** A JVM with no launcher options beyond the heap and the system properties. */
  public JvmSpec(final String name, final String mainClass, final List<String> args, final List<Path> classpath,
      final String maxHeap, final Map<String, String> systemProperties) {
    this(name, mainClass, args, classpath, maxHeap, systemProperties, List.of());
  }

  /**
   * The command line: {@code java -Xmx<heap> <options> -D... -Dzerolayer.parent.pid=<pid> -cp <guard>:<classpath>
   * ParentGuard <main> <args>}.
   *
   * @param java the java launcher
   * @param guard where {@link ParentGuard} is loaded from (a jar or a classes directory)
   * @param parentPid the process whose death ends the child
   */
  public List<String> commandLine(final Path java, final Path guard, final long parentPid) {
    final List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Xmx" + maxHeap);
    command.addAll(options);
    command.add("-Djava.awt.headless=true");
    systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.add("-D" + ParentGuard.PARENT_PID_PROPERTY + "=" + parentPid);
    command.add("-cp");
    command.add(Stream.concat(Stream.of(guard), classpath.stream())
        .map(Path::toString)
        .collect(Collectors.joining(File.pathSeparator)));
    command.add(ParentGuard.class.getName());
    command.add(mainClass);
    command.addAll(args);
    return command;
  }
}
