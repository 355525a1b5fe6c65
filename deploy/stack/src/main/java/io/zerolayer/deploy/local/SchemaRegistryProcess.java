package io.zerolayer.deploy.local;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.serde.RegistryTls;
import io.zerolayer.contract.serde.SchemaRegistryClient;
import io.zerolayer.contract.serde.SchemaRegistryClients;
import io.zerolayer.contract.serde.SchemaRegistryException;
import io.zerolayer.contract.serde.SerdeConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Apicurio schema registry (in-memory storage) on 127.0.0.1, run as a child JVM from the
 * uber-jar of {@code deploy/schema-registry}. It serves the Confluent-compatible API at
 * {@link #url()} and checks new schema versions for BACKWARD compatibility.
 */
public final class SchemaRegistryProcess implements AutoCloseable {

  /** How long {@link #start(Path)} waits for the registry to answer. */
  public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(120);

  private static final String REGISTRY_JVM = "schema-registry";
  private static final String HEAP = "256m";
  private static final String API = "/apis/ccompat/v7";
  private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(2);
  private static final String FIX = "read the log below; if the port was taken meanwhile, start again. A stale "
      + "or partly built jar is fixed with: " + RegistryJar.BUILD;

  private final ChildJvm process;
  private final String url;

  private SchemaRegistryProcess(final ChildJvm process, final String url) {
    this.process = process;
    this.url = url;
  }

  /** Starts the registry from the project's jar (see {@link RegistryJar}) with its log under workDir. */
  public static SchemaRegistryProcess start(final Path workDir) {
    return start(workDir, RegistryJar.locate(), DEFAULT_STARTUP_TIMEOUT);
  }

  /** Starts the registry from {@code jar} and waits at most {@code startupTimeout} for it to answer. */
  public static SchemaRegistryProcess start(final Path workDir, final Path jar, final Duration startupTimeout) {
    return start(workDir, jar, startupTimeout, null);
  }

  /**
   * As {@link #start(Path)}, serving https only, with a certificate {@code certificates} issues
   * for it; clients trust {@link LocalCertificates#truststore()}.
   */
  public static SchemaRegistryProcess startTls(final Path workDir, final LocalCertificates certificates) {
    return start(workDir, RegistryJar.locate(), DEFAULT_STARTUP_TIMEOUT, requireNonNull(certificates, "certificates"));
  }

  /** The registry-client settings that trust a registry started by {@link #startTls}. */
  private static RegistryTls tls(final LocalCertificates certificates) {
    return new RegistryTls(certificates.truststore().toString(), certificates.password(), certificates.storeType());
  }

  /** Starts on free ports, and on others again when one was taken before the registry bound it. */
  private static SchemaRegistryProcess start(final Path workDir, final Path jar, final Duration startupTimeout,
      final LocalCertificates certificates) {
    requireNonNull(workDir, "workDir");
    requireNonNull(startupTimeout, "startupTimeout");
    return PortRetry.start("the schema registry", List.of(ChildJvm.logFile(REGISTRY_JVM, workDir)),
        () -> startOnce(workDir, jar, startupTimeout, certificates));
  }

  private static SchemaRegistryProcess startOnce(final Path workDir, final Path jar, final Duration startupTimeout,
      final LocalCertificates certificates) {
    final List<Integer> ports = FreePorts.pick(2);
    final String url = (certificates == null ? "http" : "https") + "://" + FreePorts.HOST + ":" + ports.get(0) + API;
    final Map<String, String> properties = new HashMap<>(Map.of("quarkus.http.host", FreePorts.HOST,
        // Concurrent first registrations contend for H2's table locks; wait for them instead
        // of failing after H2's default of one second.
        "quarkus.datasource.jdbc.url", "jdbc:h2:mem:registry_db;LOCK_TIMEOUT=30000"));
    final RegistryTls tls = certificates == null ? null : tls(certificates);
    if (certificates == null) {
      properties.put("quarkus.http.port", String.valueOf(ports.get(0)));
    } else {
      properties.putAll(Map.of("quarkus.http.ssl-port", String.valueOf(ports.get(0)),
          "quarkus.http.port", String.valueOf(ports.get(1)),
          "quarkus.http.insecure-requests", "disabled",
          "quarkus.http.ssl.certificate.key-store-file", certificates.keystore("schema-registry").toString(),
          "quarkus.http.ssl.certificate.key-store-password", certificates.password(),
          "quarkus.http.ssl.certificate.key-store-file-type", certificates.storeType()));
    }
    final JvmSpec spec = new JvmSpec(REGISTRY_JVM, RegistryJar.mainClass(jar), List.of(), List.of(jar), HEAP,
        properties);
    final ChildJvm process = ChildJvm.start(spec, workDir);
    try {
      final HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT);
      final HttpClient http = (tls == null ? builder : builder.sslContext(tls.sslContext())).build();
      final Duration took = StartupWait.until("schema registry at " + url, process, startupTimeout,
          () -> send(http, HttpRequest.newBuilder(URI.create(url + "/subjects")).GET()).statusCode() == 200, FIX);
      setBackwardCompatibility(new SerdeConfig(url, false, null, tls), process);
      System.err.println("Schema registry answers at " + url + " (started in " + took.toMillis() + " ms, pid "
          + process.pid() + ", log " + process.logFile() + ")");
      return new SchemaRegistryProcess(process, url);
    } catch (final RuntimeException e) {
      process.stop();
      throw e;
    }
  }

  /** Base URL of the Confluent-compatible API: {@code http://127.0.0.1:<port>/apis/ccompat/v7}. */
  public String url() {
    return url;
  }

  /** Process id of the registry JVM. */
  public long pid() {
    return process.pid();
  }

  /** The registry's stdout and stderr. */
  public Path logFile() {
    return process.logFile();
  }

  /**
   * The caller stops the registry itself, after whatever uses it; no shutdown hook of its own races
   * that order. It still ends with this JVM, through ParentGuard.
   */
  public void stopOnlyWhenAsked() {
    process.stopOnlyWhenAsked();
  }

  /** Stops the registry (SIGTERM, then SIGKILL after 15 s) and waits until it is gone. */
  @Override
  public void close() {
    process.stop();
  }

  private static void setBackwardCompatibility(final SerdeConfig config, final ChildJvm process) {
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(config)) {
      registry.setCompatibility(null, "BACKWARD");
    } catch (final SchemaRegistryException e) {
      throw process.failure("The registry refused to set BACKWARD compatibility: " + e.getMessage(),
          "check that the jar is the Apicurio build of deploy/schema-registry.");
    }
  }


  private static HttpResponse<String> send(final HttpClient http, final HttpRequest.Builder request)
      throws IOException, InterruptedException {
    return http.send(request.timeout(HTTP_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
  }
}
