package io.zerolayer.cli;

import io.zerolayer.bench.chaos.ChaosOptions;
import io.zerolayer.bench.chaos.ChaosReport;
import io.zerolayer.bench.chaos.ChaosRun;
import io.zerolayer.bench.chaos.ChaosTarget;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.deploy.local.WorkDirs;
import io.zerolayer.deploy.stack.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code zerolayer chaos}: the pipeline on three Kafka nodes, every app in a process of its own,
 * under a steady load, while brokers, apps and the registry are killed or paused one after the
 * other; then every sequence is checked. Exits 1 if any was lost, duplicated, reordered, spliced
 * or left unanswered.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
    description = "Kills brokers and apps and pauses the registry under load on three Kafka nodes, then checks every stream.")
final class ChaosCommand implements Callable<Integer> {

  private static final int NODES = 3;

  @Option(names = "--faults", defaultValue = "100", description = "Faults to make. Default: ${DEFAULT-VALUE}.")
  private int faults;

  @Option(names = "--pace", defaultValue = "250ms", converter = DurationConverter.class,
      description = "Pause between two sequences of the load. Default: ${DEFAULT-VALUE}.")
  private Duration pace;

  @Option(names = "--registry-pause", defaultValue = "30s", converter = DurationConverter.class,
      description = "How long a registry fault keeps the registry stopped. Default: ${DEFAULT-VALUE}.")
  private Duration registryPause;

  @Option(names = "--seed", defaultValue = "23", description = "Seeds the choice of partitions and replicas. Default: ${DEFAULT-VALUE}.")
  private long seed;

  @Option(names = "--work-dir", defaultValue = "target/zerolayer-chaos",
      description = "Where the brokers, registry, apps' stores and logs and the fault table go. Default: ${DEFAULT-VALUE}.")
  private Path workDir;

  @Override
  public Integer call() throws Exception {
    final ChaosOptions options = new ChaosOptions(faults, pace, registryPause, seed);
    final Path dir = workDir.toAbsolutePath();
    // Every run starts on empty brokers, so the apps' stores must start empty too.
    WorkDirs.deleteRecursively(dir.resolve("apps"));
    System.out.println("==> Starting the schema registry and " + NODES + " Kafka nodes (KRaft) under " + dir);
    try (LocalCluster cluster = LocalCluster.start(dir, NODES)) {
      System.out.println("==> Provisioning topics (production profile): "
          + cluster.provision(TopicCatalogue.unprefixed()).summary());
      final ChaosReport report = ChaosRun.run(new ChaosTarget(cluster.settings(TopicCatalogue.unprefixed()),
          cluster.nodes(), cluster.registryPid(), cluster.durability(), dir.resolve("apps")), options, System.out);
      report.print(System.out);
      final Path table = dir.resolve("chaos-faults.csv");
      report.writeCsv(table);
      System.out.println("Every fault: " + table);
      return report.violations() == 0 ? 0 : 1;
    }
  }
}
