package io.zerolayer.cli;

import io.zerolayer.bench.HeatmapBenchmark;
import io.zerolayer.deploy.local.WorkDirs;
import io.zerolayer.deploy.stack.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code zerolayer bench-heatmap}: heatmap-streams throughput and telemetry-to-score latency on the real broker. */
@Command(name = "bench-heatmap", mixinStandardHelpOptions = true,
    description = {"Times heatmap-streams and a pass-through app over the same telemetry backlog, taking turns, "
        + "then measures live telemetry to score row latency; prints Markdown tables."})
final class BenchHeatmapCommand implements Callable<Integer> {

  @Spec
  private CommandSpec spec;

  @Option(names = "--records", defaultValue = "200000",
      description = "Telemetry records in the backlog. Default: ${DEFAULT-VALUE}.")
  private int records;

  @Option(names = "--instances", defaultValue = "200",
      description = "Instances the backlog comes from, over 4 zones. Default: ${DEFAULT-VALUE}.")
  private int instances;

  @Option(names = "--rounds", defaultValue = "2",
      description = "Runs of each app over the backlog, taking turns. Default: ${DEFAULT-VALUE}.")
  private int rounds;

  @Option(names = "--live-instances", defaultValue = "50",
      description = "Instances reporting live telemetry, 20 samples/s each. Default: ${DEFAULT-VALUE}.")
  private int liveInstances;

  @Option(names = "--duration", defaultValue = "30s", converter = DurationConverter.class,
      description = "How long live telemetry is measured (30s, 2m, ...). Default: ${DEFAULT-VALUE}.")
  private Duration duration;

  @Option(names = "--warmup", defaultValue = "3s", converter = DurationConverter.class,
      description = "Live telemetry before measuring. Default: ${DEFAULT-VALUE}.")
  private Duration warmup;

  @Option(names = "--work-dir", defaultValue = "target/zerolayer-bench-heatmap",
      description = "Where the broker, registry and stores keep their files. Default: ${DEFAULT-VALUE}.")
  private Path workDir;

  @Override
  public Integer call() throws Exception {
    final HeatmapBenchmark.Plan plan = plan();
    final Path dir = workDir.toAbsolutePath();
    System.out.println("==> Starting the schema registry and the Kafka broker (KRaft) under " + dir);
    try (LocalCluster cluster = LocalCluster.start(dir)) {
      // The broker starts empty every time, so the stores must too.
      WorkDirs.deleteRecursively(dir.resolve("state"));
      new HeatmapBenchmark(cluster, dir.resolve("state"), System.out).run(plan, commandLine());
    }
    return 0;
  }

  HeatmapBenchmark.Plan plan() {
    try {
      return new HeatmapBenchmark.Plan(records, instances, rounds, liveInstances, duration, warmup);
    } catch (final IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  /** The command line as typed, for the caption: {@code zerolayer bench-heatmap --records ...}. */
  String commandLine() {
    return TypedCommandLine.of(spec);
  }
}
