package io.zerolayer.cli;

import io.zerolayer.bench.ChangelogBytes;
import io.zerolayer.bench.WaterfallBenchmark;
import io.zerolayer.bench.WaterfallReport;
import io.zerolayer.deploy.stack.LocalDeployment;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.tokenbuffer.TokenBufferTopology;
import java.nio.file.Files;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code zerolayer bench-latency}: where each millisecond of a request goes, hop by hop, beside the floor. */
@Command(name = "bench-latency", mixinStandardHelpOptions = true,
    description = {"Runs the embedded default (real broker, pipeline, simulated fleet), sends requests at each "
        + "rate and times every hop of each, with one plain Kafka hop beside them at the same moments; then long "
        + "answers. Prints Markdown tables and writes them with two charts to a results folder."})
final class BenchLatencyCommand implements Callable<Integer> {

  private static final String TENANT = "bench";
  private static final String API_KEY = "bench-key";

  @Spec
  private CommandSpec spec;

  @Option(names = "--rates", split = ",", defaultValue = "1,20,100",
      description = "Requests per second of each phase. Default: ${DEFAULT-VALUE}.")
  private List<Integer> rates;

  @Option(names = "--duration", defaultValue = "20s", converter = DurationConverter.class,
      description = "How long each rate is measured. Default: ${DEFAULT-VALUE}.")
  private Duration duration;

  @Option(names = "--warmup", defaultValue = "3s", converter = DurationConverter.class,
      description = "How long each rate runs at least before it is measured. Default: ${DEFAULT-VALUE}.")
  private Duration warmup;

  @Option(names = "--max-warmup", defaultValue = "180s", converter = DurationConverter.class,
      description = "How long each rate may run before it is measured while this JVM's JIT compilers are still"
          + " busy (more than 15 % of the last 10 s). Default: ${DEFAULT-VALUE}.")
  private Duration maxWarmup;

  @Option(names = "--output-tokens", defaultValue = "64",
      description = "Most tokens a request asks for (answers stop between half and all). Default: ${DEFAULT-VALUE}.")
  private int outputTokens;

  @Option(names = "--long-answers", defaultValue = "4",
      description = "Long answers in the last phase, one a second; 0 for none. Default: ${DEFAULT-VALUE}.")
  private int longAnswers;

  @Option(names = "--long-output-tokens", defaultValue = "4096",
      description = "Most tokens a long answer asks for. Default: ${DEFAULT-VALUE}.")
  private int longOutputTokens;

  @Option(names = "--instances", defaultValue = "8",
      description = "Simulated instances (8 serve 100 requests/s of the default answers). Default: ${DEFAULT-VALUE}.")
  private int instances;

  @Option(names = "--router-commit-interval-ms",
      description = "The router's commit interval, to compare settings (router.commit.interval.ms). Default: the"
          + " router's.")
  private Long routerCommitIntervalMs;

  @Option(names = "--out", description = "Results folder. Default: target/zerolayer-bench/latency-<timestamp>.")
  private Path out;

  @Option(names = "--work-dir", defaultValue = "target/zerolayer-bench-latency",
      description = "Where the broker, registry and stores keep their files. Default: ${DEFAULT-VALUE}.")
  private Path workDir;

  @Override
  public Integer call() throws Exception {
    final Path results = out != null ? out : Path.of("target", "zerolayer-bench",
        "latency-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    final TenantDirectory tenants = TenantDirectory.of(List.of(
        new Tenant(TENANT, Tenant.hashKey(API_KEY), 10_000, 100_000_000, 2)));
    try (LocalDeployment deployment = new LocalDeployment(System.out).withRouterSettings(
        routerCommitIntervalMs == null ? Map.of() : Map.of(RouterConfig.COMMIT_INTERVAL_MS, routerCommitIntervalMs))) {
      deployment.start(workDir, instances, 2, tenants, 0, false);
      final String appId = PipelineNames.tokenBufferApplicationId(deployment.settings().catalogue());
      final Set<String> changelogs = Set.of(appId + "-" + TokenBufferTopology.SEQUENCE_STORE + "-changelog",
          appId + "-" + TokenBufferTopology.TOKEN_STORE + "-changelog");
      final List<WaterfallBenchmark.Phase> phases;
      try (Admin admin = Admin.create(deployment.settings().clientProperties())) {
        phases = new WaterfallBenchmark(deployment.settings(), new ChangelogBytes(admin, changelogs),
            URI.create(deployment.pipeline().metricsUrls().get("router")), System.out)
            .run(new WaterfallBenchmark.Plan(rates, duration, warmup, maxWarmup, outputTokens, longAnswers,
                longOutputTokens, TENANT, API_KEY));
      }
      final String table = new WaterfallReport(TypedCommandLine.of(spec)).render(phases);
      Files.createDirectories(results);
      Files.writeString(results.resolve("waterfall.md"), table);
      WaterfallReport.chart(phases, 50, results.resolve("waterfall-p50.png"));
      WaterfallReport.chart(phases, 99, results.resolve("waterfall-p99.png"));
      System.out.println();
      System.out.print(table);
      System.out.println("\nWritten to " + results.toAbsolutePath() + ": waterfall.md, waterfall-p50.png, "
          + "waterfall-p99.png");
    }
    return 0;
  }
}
