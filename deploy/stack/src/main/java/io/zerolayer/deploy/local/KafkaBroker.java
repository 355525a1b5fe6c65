package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import io.zerolayer.deploy.broker.BrokerRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.SslConfigs;

/**
 * A single-node Apache Kafka cluster (KRaft, broker and controller in one JVM) on 127.0.0.1, run
 * as a child JVM from the Kafka server jars. Its data lives in {@code <workDir>/kraft-combined-logs}
 * and is wiped on every start: the ports change from start to start, and the local registry keeps
 * its schemas in memory, so old records would name schema ids that no longer exist.
 */
public final class KafkaBroker implements AutoCloseable {

  /** How long {@link #start(Path)} waits for the broker to answer. */
  public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(120);
  /** Kafka 4's allow-list of the URLs its OAUTHBEARER handlers may call (a system property). */
  public static final String ALLOWED_URLS = "org.apache.kafka.sasl.oauthbearer.allowed.urls";

  private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);
  private static final String HEAP = "512m";
  private static final String DATA_DIR = "kraft-combined-logs";
  private static final String FIX = "read the log below; if a port was taken meanwhile, start again. If the "
      + "machine is slow, raise the startup timeout.";
  private static final String BROKER_JVM = "kafka-broker";

  private final ChildJvm process;
  private final BrokerConfig config;
  private final Map<String, Object> admin;

  private KafkaBroker(final ChildJvm process, final BrokerConfig config, final Map<String, Object> admin) {
    this.process = process;
    this.config = config;
    this.admin = admin;
  }

  /** Starts a broker with files under {@code workDir} and waits until it answers admin requests. */
  public static KafkaBroker start(final Path workDir) {
    return start(workDir, DEFAULT_STARTUP_TIMEOUT);
  }

  /** As {@link #start(Path)}, waiting at most {@code startupTimeout} for the broker to answer. */
  public static KafkaBroker start(final Path workDir, final Duration startupTimeout) {
    return start(workDir, startupTimeout, null, null);
  }

  /**
   * As {@link #start(Path)}, on TLS only and under Kafka's ACL authorizer (see {@link BrokerConfig}):
   * an SSL listener that asks clients for a certificate of {@code certificates}' authority, and a
   * SASL_SSL listener for SCRAM users. {@link #adminProperties()} connects as the super user
   * {@value BrokerConfig#ADMIN_PRINCIPAL}, to provision topics, users and ACLs.
   */
  public static KafkaBroker startSecured(final Path workDir, final LocalCertificates certificates) {
    return start(workDir, DEFAULT_STARTUP_TIMEOUT, requireNonNull(certificates, "certificates"), null);
  }

  /**
   * As {@link #startSecured(Path, LocalCertificates)}, its SASL_SSL listener also taking OAUTHBEARER
   * tokens signed by the keys at {@code jwksUrl} (see {@link BrokerConfig.Tls#jwksUrl()}).
   */
  public static KafkaBroker startSecured(final Path workDir, final LocalCertificates certificates,
      final String jwksUrl) {
    return start(workDir, DEFAULT_STARTUP_TIMEOUT, requireNonNull(certificates, "certificates"),
        requireNonNull(jwksUrl, "jwksUrl"));
  }

  /** Starts on free ports, and on others again when one was taken before the broker bound it. */
  private static KafkaBroker start(final Path workDir, final Duration startupTimeout,
      final LocalCertificates certificates, final String jwksUrl) {
    requireNonNull(startupTimeout, "startupTimeout");
    final Path dir = requireNonNull(workDir, "workDir").toAbsolutePath();
    return PortRetry.start("the Kafka broker", List.of(ChildJvm.logFile(BROKER_JVM, dir)),
        () -> startOnce(dir, startupTimeout, certificates, jwksUrl));
  }

  private static KafkaBroker startOnce(final Path dir, final Duration startupTimeout,
      final LocalCertificates certificates, final String jwksUrl) {
    final List<Integer> ports = FreePorts.pick(3);
    final BrokerConfig config = new BrokerConfig(ports.get(0), ports.get(1), dir.resolve(DATA_DIR),
        certificates == null ? null : new BrokerConfig.Tls(ports.get(2),
            certificates.keystore(BrokerConfig.BROKER_PRINCIPAL), certificates.truststore(),
            certificates.password(), certificates.storeType(), jwksUrl));
    final Map<String, Object> admin = certificates == null
        ? Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers())
        : certificateLogin(config.bootstrapServers(), certificates, BrokerConfig.ADMIN_PRINCIPAL);
    final Path properties = writeConfig(dir, config);
    final List<Path> classpath = BrokerRuntime.classpath();
    format(dir, classpath, properties, Uuid.randomUuid().toString(), true);
    final ChildJvm process = ChildJvm.start(spec(BROKER_JVM, BrokerRuntime.KAFKA_MAIN_CLASS,
        List.of(properties.toString()), classpath, jwksUrl), dir);
    try (BrokerProbe probe = new BrokerProbe(config.brokerPort(), admin)) {
      final Duration took = StartupWait.until("Kafka broker on " + config.bootstrapServers(), process,
          startupTimeout, probe, FIX);
      System.err.println("Kafka broker answers on " + config.bootstrapServers() + " (started in "
          + took.toMillis() + " ms, pid " + process.pid() + ", log " + process.logFile() + ")");
      return new KafkaBroker(process, config, admin);
    } catch (final RuntimeException e) {
      process.stop();
      throw e;
    }
  }

  /** {@code 127.0.0.1:<port>} of the listener clients use: PLAINTEXT, or SSL on a secured broker. */
  public String bootstrapServers() {
    return config.bootstrapServers();
  }

  /** {@code 127.0.0.1:<port>} of the SASL_SSL listener of a secured broker. */
  public String saslBootstrapServers() {
    return config.saslBootstrapServers();
  }

  /** Client settings of a super user: none but the bootstrap servers on a PLAINTEXT broker. */
  public Map<String, Object> adminProperties() {
    return admin;
  }

  /**
   * Client settings that log in to a secured broker's SSL listener with the certificate of
   * {@code principal}, issued by {@code certificates} on first use.
   */
  private static Map<String, Object> certificateLogin(final String bootstrapServers,
      final LocalCertificates certificates, final String principal) {
    return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
        SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, certificates.keystore(principal).toString(),
        SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, certificates.password(),
        SslConfigs.SSL_KEY_PASSWORD_CONFIG, certificates.password(),
        SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, certificates.storeType(),
        SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificates.truststore().toString(),
        SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, certificates.password(),
        SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, certificates.storeType());
  }

  /** Process id of the broker JVM. */
  public long pid() {
    return process.pid();
  }

  /** The broker's stdout and stderr, which hold its log. */
  public Path logFile() {
    return process.logFile();
  }

  /**
   * The caller stops the broker itself, after whatever uses it; no shutdown hook of its own races
   * that order. It still ends with this JVM, through ParentGuard.
   */
  public void stopOnlyWhenAsked() {
    process.stopOnlyWhenAsked();
  }

  /** Stops the broker cleanly (SIGTERM, then SIGKILL after 15 s) and waits until it is gone. */
  @Override
  public void close() {
    process.stop();
  }

  /** Writes {@code config} to {@code <dir>/server.properties}, after deleting the data it names. */
  static Path writeConfig(final Path dir, final BrokerConfig config) {
    try {
      Files.createDirectories(dir);
      WorkDirs.deleteRecursively(config.logDir());
      final Path properties = dir.resolve("server.properties");
      Files.writeString(properties, config.render(), StandardCharsets.UTF_8);
      return properties;
    } catch (final IOException e) {
      throw new UncheckedIOException("Cannot prepare the broker's work dir " + dir + "; check it is writable", e);
    }
  }

  /**
   * Formats the storage of the node configured by {@code properties} for cluster {@code clusterId}:
   * a {@code standalone} node as the one voter of a dynamic quorum, else as one of the static
   * quorum its properties name.
   */
  static void format(final Path dir, final List<Path> classpath, final Path properties, final String clusterId,
      final boolean standalone) {
    final List<String> args = new ArrayList<>(List.of("format", "--cluster-id", clusterId, "--config",
        properties.toString()));
    if (standalone) {
      args.add("--standalone");
    }
    final ChildJvm tool = ChildJvm.start(spec("kafka-storage-format", BrokerRuntime.STORAGE_TOOL_MAIN_CLASS,
        args, classpath, null), dir);
    final OptionalInt exit = tool.awaitExit(FORMAT_TIMEOUT);
    if (exit.isEmpty() || exit.getAsInt() != 0) {
      tool.stop();
      throw tool.failure("Formatting the broker's storage failed ("
          + (exit.isEmpty() ? "no result within " + FORMAT_TIMEOUT.toSeconds() + " s" : "exit code " + exit.getAsInt())
          + ").", "read the log below; delete " + dir + " and start again.");
    }
    tool.stop();
  }

  /** A JVM of the broker's classpath; with a JWKS URL, one it may fetch OAUTHBEARER keys from. */
  static JvmSpec spec(final String name, final String mainClass, final List<String> args,
      final List<Path> classpath, final String jwksUrl) {
    return spec(name, mainClass, args, classpath, jwksUrl, List.of());
  }

  /** As {@link #spec(String, String, List, List, String)}, with launcher {@code options}. */
  static JvmSpec spec(final String name, final String mainClass, final List<String> args,
      final List<Path> classpath, final String jwksUrl, final List<String> options) {
    final Map<String, String> properties = jwksUrl == null
        ? Map.of("log4j2.configurationFile", BrokerRuntime.LOG_CONFIG_RESOURCE)
        : Map.of("log4j2.configurationFile", BrokerRuntime.LOG_CONFIG_RESOURCE, ALLOWED_URLS, jwksUrl);
    return new JvmSpec(name, mainClass, args, classpath, HEAP, properties, options);
  }
}
