package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.cli.ZerolayerCli;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.telemetry.RunningRequestsPage;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.broker.BrokerRuntime;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.FleetConfig;
import io.zerolayer.gateway.GatewayConfig;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantSignature;
import io.zerolayer.telemetry.TelemetryIngestConfig;
import io.zerolayer.testsupport.ChildApp;
import io.zerolayer.testsupport.SingleBroker;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.tokenbuffer.TokenBufferConfig;
import io.zerolayer.worker.openai.OpenAiWorkerConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The distribution archive as a platform team gets it (unpacked by the build under
 * {@code dist/target}): {@code bin/zerolayer} provisions a deployment's topics on the real broker,
 * then starts every app, each of which becomes ready on them, with its settings from the
 * environment alone.
 */
@ExtendWith(TestCluster.class)
class DistributionIT {

  private static final Path LAUNCHER = Path.of("..", "dist", "target", "zerolayer-" + version(), "bin", "zerolayer")
      .toAbsolutePath().normalize();
  private static final Duration READY = Duration.ofSeconds(120);

  @TempDir
  Path dir;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void shouldProvisionTheTopicsAndStartEveryAppFromTheLauncher(final TestCluster.Handle cluster) throws Exception {
    assertThat(LAUNCHER).as("the launcher; build the archive with: mvn -pl dist -am package").isExecutable();
    final TopicCatalogue catalogue = new TopicCatalogue("dist-");

    // Without arguments it lists the apps and fails; with `topics` it provisions the catalogue (run by
    // the java that JAVA names; the apps below by the one on the PATH)
    final Run usage = run(List.of());
    assertThat(usage.exit()).isEqualTo(2);
    assertThat(usage.output()).contains("heatmap-streams", "token-buffer", "router", "gateway", "telemetry-ingest");
    final Run topics = run(List.of("topics", "--bootstrap-servers", cluster.bootstrapServers(),
        "--profile", "local", "--prefix", catalogue.prefix()));
    assertThat(topics.exit()).as(topics.output()).isZero();
    assertThat(topics.output()).contains("created " + Topics.ALL.size() + " topics",
        "Broker settings: as the apps need them");
    // And writes them, with each app's user and ACLs, as Strimzi resources instead when asked
    final Run strimzi = run(List.of("topics", "--strimzi", "-", "--prefix", catalogue.prefix()));
    assertThat(strimzi.exit()).as(strimzi.output()).isZero();
    assertThat(strimzi.output().split("kind: KafkaTopic", -1)).hasSize(Topics.ALL.size() + 1);
    assertThat(strimzi.output()).contains("topicName: " + catalogue.name(Topics.KV_EVENTS), "kind: KafkaUser");

    // Then each app it starts becomes ready on the deployment's topics
    final ClusterSettings settings = ClusterSettings.plaintext(cluster.bootstrapServers(), cluster.registryUrl(),
        catalogue);
    final Path tenants = dir.resolve("tenants.json");
    Files.writeString(tenants, "{\"tenants\": [{\"id\": \"acme\", \"apiKeySha256\": \"" + Tenant.hashKey("k")
        + "\", \"requestsPerSecond\": 10, \"tokensPerSecond\": 10000, \"burstSeconds\": 2}]}");
    final String queryToken = TenantSignature.newSecret();
    final String secret = TenantSignature.newSecret();
    // One broker: the streams apps' own topics get one replica (their defaults ask for three).
    try (ChildApp tokenBuffer = ready(settings, "token-buffer", TokenBufferConfig.HTTP_PORT,
        SingleBroker.settings(TokenBufferConfig.PREFIX, Map.of(
            TokenBufferConfig.APPLICATION_ID, PipelineNames.tokenBufferApplicationId(catalogue),
            TokenBufferConfig.STATE_DIR, dir.resolve("token-buffer").toString(),
            TokenBufferConfig.QUERY_TOKEN, queryToken, TokenBufferConfig.TENANTS_FILE, tenants.toString())))) {
      final List<App> others = List.of(
          new App("heatmap-streams", HeatmapConfig.HTTP_PORT, SingleBroker.settings(HeatmapConfig.PREFIX, Map.of(
              HeatmapConfig.APPLICATION_ID, PipelineNames.heatmapApplicationId(catalogue),
              HeatmapConfig.STATE_DIR, dir.resolve("heatmap").toString()))),
          new App("router", RouterConfig.HTTP_PORT, Map.of(RouterConfig.ROUTER_ID, "dist-router-1",
              RouterConfig.GROUP_ID, PipelineNames.routerGroup(catalogue), RouterConfig.TENANTS_FILE,
              tenants.toString(), RouterConfig.GATEWAY_SIGNING_SECRET, secret)),
          new App("gateway", GatewayConfig.HTTP_PORT, Map.of(GatewayConfig.TENANTS_FILE, tenants.toString(),
              GatewayConfig.SIGNING_SECRET, secret,
              GatewayConfig.SEQUENCE_QUERY_URL, "http://127.0.0.1:" + tokenBuffer.port(),
              GatewayConfig.SEQUENCE_QUERY_TOKEN, queryToken)),
          new App("telemetry-ingest", TelemetryIngestConfig.HTTP_PORT, Map.of()),
          // Ready without its server: it reaches the server only when a task comes
          new App("openai-worker", OpenAiWorkerConfig.HTTP_PORT, Map.of(OpenAiWorkerConfig.INSTANCE_ID,
              "dist-engine-0", OpenAiWorkerConfig.MODEL, "sim-8b", OpenAiWorkerConfig.SEQUENCE_QUERY_URL,
              "http://127.0.0.1:" + tokenBuffer.port(), OpenAiWorkerConfig.SEQUENCE_QUERY_TOKEN, queryToken)),
          new App("fleet", FleetConfig.HTTP_PORT, Map.of(FleetConfig.INSTANCES, 1, FleetConfig.ZONES, "zone-a",
              FleetConfig.ID_PREFIX, "dist-")));
      for (final App app : others) {
        try (ChildApp started = ready(settings, app.name(), app.portKey(), app.settings())) {
          assertThat(started.port()).isPositive();
          if (app.name().equals("openai-worker")) {
            // The page telemetry-ingest reads beside the server's metrics: nothing runs through it yet
            assertThat(get(started.port(), RunningRequestsPage.PATH))
                .isEqualTo(RunningRequestsPage.render(Map.of()));
          }
        }
      }
    }
    // And every command of the command line starts from it (up and topics ran in full above and below)
    final Set<String> commands = new CommandLine(new ZerolayerCli()).getSubcommands().keySet();
    assertThat(commands).contains("up", "chaos", "topics", "bench", "bench-latency", "bench-gateway");
    for (final String command : commands) {
      final Run help = run(List.of(command, "--help"));
      assertThat(help.exit()).as(help.output()).isZero();
      assertThat(help.output()).contains("Usage: zerolayer " + command);
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void shouldRunTheDemoFromTheArchiveOutsideTheSourceTree() throws Exception {
    // Given a working directory with no project above it, so the registry can only come from the
    // archive, and the archive holding every jar of the broker's classpath (for a machine without
    // the local Maven repository)
    assertThat(dir.resolve("deploy")).doesNotExist();
    final Path kafka = LAUNCHER.getParent().resolveSibling("kafka");
    assertThat(BrokerRuntime.classpath()).allSatisfy(jar -> assertThat(kafka.resolve(jar.getFileName().toString()))
        .isRegularFile());

    // When the launcher runs the embedded default, which sends its requests and stops
    final Run up = run(List.of("up", "--exit", "--instances", "2", "--requests", "2", "--work-dir",
        dir.resolve("up").toString()), dir);

    // Then it started the registry and broker, served the requests and stopped cleanly
    assertThat(up.exit()).as(up.output()).isZero();
    assertThat(up.output()).contains("Schema registry answers at", "==> Sending 2 requests", "==> Up.");
  }

  private record App(String name, String portKey, Map<String, ?> settings) {
  }

  private record Run(int exit, String output) {
  }

  /** Starts an app through the launcher and waits until it answers {@code /ready}. */
  private ChildApp ready(final ClusterSettings settings, final String app, final String portKey,
      final Map<String, ?> appSettings) throws IOException {
    final ChildApp started = ChildApp.start(app, List.of(LAUNCHER.toString(), app), settings,
        dir.resolve(app + ".log"), portKey, appSettings);
    try {
      started.awaitReady(READY);
      return started;
    } catch (final RuntimeException | AssertionError e) {
      started.close();
      throw e;
    }
  }

  private static String get(final int port, final String path) throws IOException, InterruptedException {
    final HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    return response.body();
  }

  private Run run(final List<String> args) throws Exception {
    return run(args, Path.of("").toAbsolutePath());
  }

  /** Runs the launcher in {@code workingDir} and waits until it ends. */
  private Run run(final List<String> args, final Path workingDir) throws Exception {
    final List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
    command.addAll(args);
    final Path log = dir.resolve("run-" + System.nanoTime() + ".log");
    final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).directory(workingDir.toFile());
    builder.environment().put("JAVA", ChildApp.javaCommand());
    final Process process = builder.start();
    assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("bin/zerolayer %s ended", args).isTrue();
    return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  private static String version() {
    return System.getProperty("zerolayer.version", "0.1.0-SNAPSHOT");
  }
}
