package io.zerolayer.deploy.broker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a launcher needs to run the Kafka server jars in a child JVM: their classpath as resolved
 * by Maven when this module was built, the main classes, and the logging configuration.
 */
public final class BrokerRuntime {

  /** Main class of the broker; its only argument is the path of server.properties. */
  public static final String KAFKA_MAIN_CLASS = "kafka.Kafka";
  /** Main class of {@code kafka-storage.sh}, which formats the log directories. */
  public static final String STORAGE_TOOL_MAIN_CLASS = "kafka.tools.StorageTool";
  /** Classpath resource (in this jar) holding the Log4j 2 configuration of the broker JVM. */
  public static final String LOG_CONFIG_RESOURCE = "io/zerolayer/deploy/broker/log4j2-broker.properties";

  private static final String CLASSPATH_RESOURCE = "kafka-broker.classpath";
  private static final String REBUILD = "mvn -pl deploy/kafka-broker -am install -DskipTests";

  private BrokerRuntime() {
  }

  /**
   * Environment variable naming a directory that holds the broker's jars under their repository
   * names (a distribution's {@code kafka/}), where the local Maven repository lacks them.
   */
  public static final String LIB_ENV = "ZEROLAYER_BROKER_LIB";

  /**
   * The broker's runtime classpath: each jar from the local Maven repository, else from the
   * directory {@link #LIB_ENV} names.
   *
   * @throws IllegalStateException if the resource is missing or names a jar found in neither
   *     place, with the command that rebuilds it
   */
  public static List<Path> classpath() {
    return resolve(parse(readResource()), Optional.ofNullable(System.getenv(LIB_ENV)).filter(dir -> !dir.isBlank())
        .map(Path::of));
  }

  static List<Path> resolve(final List<Path> entries, final Optional<Path> lib) {
    final List<Path> resolved = entries.stream().map(path -> Files.exists(path) ? path
        : lib.map(dir -> dir.resolve(path.getFileName().toString())).filter(Files::exists).orElse(path)).toList();
    final List<Path> missing = resolved.stream().filter(path -> !Files.exists(path)).toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException("The Kafka broker classpath names " + missing.size()
          + " jar(s) that are not in the local Maven repository" + lib.map(dir -> " or in " + dir).orElse("")
          + ", e.g. " + missing.get(0) + ". Re-resolve them with: " + REBUILD + ", or point " + LIB_ENV
          + " at a distribution's kafka/ directory");
    }
    return resolved;
  }

  static List<Path> parse(final String classpath) {
    return Arrays.stream(classpath.trim().split(java.io.File.pathSeparator))
        .map(String::trim)
        .filter(entry -> !entry.isEmpty())
        .map(Path::of)
        .toList();
  }

  private static String readResource() {
    try (InputStream in = BrokerRuntime.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("Resource " + CLASSPATH_RESOURCE + " is missing from the "
            + "zerolayer-kafka-broker jar; it is written at generate-resources. Rebuild with: " + REBUILD);
      }
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        return reader.lines().collect(Collectors.joining());
      }
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot read " + CLASSPATH_RESOURCE, e);
    }
  }
}
