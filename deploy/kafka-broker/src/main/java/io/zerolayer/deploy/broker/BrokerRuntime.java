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
   * The broker's runtime classpath: absolute paths of jars in the local Maven repository.
   *
   * @throws IllegalStateException if the resource is missing or names a jar that no longer exists,
   *     with the command that rebuilds it
   */
  public static List<Path> classpath() {
    final List<Path> entries = parse(readResource());
    final List<Path> missing = entries.stream().filter(path -> !Files.exists(path)).toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException("The Kafka broker classpath names " + missing.size()
          + " jar(s) that are not in the local Maven repository, e.g. " + missing.get(0)
          + ". Re-resolve them with: " + REBUILD);
    }
    return entries;
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
