package io.zerolayer.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.bench.gateway.GatewayBenchReport;
import io.zerolayer.bench.gateway.GatewayBenchmark;
import io.zerolayer.bench.gateway.PacedEngine;
import io.zerolayer.bench.gateway.StandInFleet;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.deploy.stack.LocalDeployment;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code zerolayer bench-gateway}: the same requests straight to an engine and through Zerolayer, side by side. */
@Command(name = "bench-gateway", mixinStandardHelpOptions = true,
    description = {"Runs the embedded default with instances that are a paced OpenAI-compatible stand-in engine"
        + " behind the worker adapter, and sends the same streamed chat completions from one client (langchain4j's"
        + " OpenAI module) straight to the engine and through the gateway, in turns, at each rate. Prints time to"
        + " first token, gaps and tokens/s both ways and the difference, and writes the table to a results folder."})
final class BenchGatewayCommand implements Callable<Integer> {

  private static final String TENANT = "bench";
  private static final String API_KEY = "bench-key";

  @Spec
  private CommandSpec spec;

  @Option(names = "--rates", split = ",", defaultValue = "1,20,100",
      description = "Requests per second each way, one phase each. Default: ${DEFAULT-VALUE}.")
  private List<Integer> rates;

  @Option(names = "--duration", defaultValue = "20s", converter = DurationConverter.class,
      description = "How long each rate is measured. Default: ${DEFAULT-VALUE}.")
  private Duration duration;

  @Option(names = "--warmup", defaultValue = "5s", converter = DurationConverter.class,
      description = "How long each rate runs at least before it is measured. Default: ${DEFAULT-VALUE}.")
  private Duration warmup;

  @Option(names = "--max-warmup", defaultValue = "180s", converter = DurationConverter.class,
      description = "How long each rate may run before it is measured while this JVM's JIT compilers are still"
          + " busy (more than 15 % of the last 10 s). Default: ${DEFAULT-VALUE}.")
  private Duration maxWarmup;

  @Option(names = "--output-tokens", defaultValue = "64",
      description = "Tokens of every answer. Default: ${DEFAULT-VALUE}.")
  private int outputTokens;

  @Option(names = "--first-token", defaultValue = "50ms", converter = DurationConverter.class,
      description = "The engine's own time to first token. Default: ${DEFAULT-VALUE}.")
  private Duration firstToken;

  @Option(names = "--token-interval", defaultValue = "20ms", converter = DurationConverter.class,
      description = "The engine's time between tokens. Default: ${DEFAULT-VALUE}.")
  private Duration tokenInterval;

  @Option(names = "--instances", defaultValue = "4",
      description = "Instances in front of the engine, each its own worker. Default: ${DEFAULT-VALUE}.")
  private int instances;

  @Option(names = "--out", description = "Results folder. Default: target/zerolayer-bench/gateway-<timestamp>.")
  private Path out;

  @Option(names = "--work-dir", defaultValue = "target/zerolayer-bench-gateway",
      description = "Where the broker, registry and stores keep their files. Default: ${DEFAULT-VALUE}.")
  private Path workDir;

  @Override
  public Integer call() throws Exception {
    final Path results = out != null ? out : Path.of("target", "zerolayer-bench",
        "gateway-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    final TenantDirectory tenants = TenantDirectory.of(List.of(
        new Tenant(TENANT, Tenant.hashKey(API_KEY), 10_000, 100_000_000, 2)));
    final GatewayBenchmark.Plan plan = new GatewayBenchmark.Plan(rates, duration, warmup, maxWarmup, outputTokens,
        Fleet.MODEL);
    try (LocalDeployment deployment = new LocalDeployment(System.out)) {
      deployment.start(workDir, 0, 1, tenants, 0, false);
      try (ContractSerdes serdes = new ContractSerdes(deployment.settings().serdes());
          PacedEngine engine = new PacedEngine(firstToken, tokenInterval);
          StandInFleet fleet = new StandInFleet(instances, deployment.settings(), serdes, engine, Fleet.MODEL,
              deployment.pipeline().tokenBufferUrl(), deployment.pipeline().sequenceQueryToken(),
              new SimpleMeterRegistry())) {
        System.out.println("==> Waiting until the router's heatmap shows " + fleet.instanceIds());
        deployment.pipeline().awaitHeatmap(fleet.instanceIds(), Duration.ofSeconds(60));
        final List<GatewayBenchmark.Phase> phases = new GatewayBenchmark(engine.baseUrl(),
            deployment.gateway().baseUrl(), API_KEY, plan, System.out).run(plan);
        final String table = new GatewayBenchReport(TypedCommandLine.of(spec)).render(phases, plan);
        Files.createDirectories(results);
        Files.writeString(results.resolve("gateway.md"), table);
        System.out.println();
        System.out.print(table);
        System.out.println("\nWritten to " + results.toAbsolutePath().resolve("gateway.md"));
      }
    }
    return 0;
  }
}
