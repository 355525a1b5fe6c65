package io.zerolayer.cli;

import io.zerolayer.bench.Contender;
import io.zerolayer.bench.FleetShape;
import io.zerolayer.bench.PolicyBenchPlan;
import io.zerolayer.bench.PolicyBenchmark;
import io.zerolayer.bench.Scenario;
import io.zerolayer.bench.SmokeCheck;
import io.zerolayer.bench.Workload;
import io.zerolayer.deploy.local.WorkDirs;
import io.zerolayer.deploy.stack.LocalCluster;
import io.zerolayer.fleet.fault.FaultSchedule;
import io.zerolayer.fleet.load.PromptMix;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code zerolayer bench}: every routing policy side by side on the same workload and fault schedule. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Runs each routing policy in turn through the real pipeline (real broker and registry), each "
        + "with its own topics, a fresh pipeline and fleet, on the same workload and fault schedule; writes a "
        + "Markdown table, a CSV of every request and PNG charts to a results folder and prints the table."})
final class BenchCommand implements Callable<Integer> {

  @Spec
  private CommandSpec spec;

  @Mixin
  private BenchLoadOptions load;

  @Option(names = "--policies", split = ",", description = "Policies to run, in this order; <policy>/no-cutover runs "
      + "one with token-buffer's cut-over off, as behind the balancer it imitates. Default: zerolayer, each of "
      + "round-robin, least-outstanding, p2c, epp, prefix-aware with /no-cutover, then each of them with cut-over.")
  private List<String> policies;

  @Option(names = "--scenario", defaultValue = "all", description = "Preset fault schedule: steady, oom, zone-loss, "
      + "cold-start, stalls or all (each fault in its own quarter). Default: ${DEFAULT-VALUE}.")
  private String scenario;

  @Option(names = "--faults", description = "A fault schedule instead of the scenario, offsets from the load's "
      + "start, e.g. 'oom@20s:gpu-1, recover@35s:gpu-1, zone-loss@40s:zone-c'.")
  private String faults;

  @Option(names = "--smoke", description = "A quick check of the harness: 3 instances in 2 zones, 3 users for 5 s "
      + "with one OOM per policy; ignores the fleet, load, fault and round options; fails unless every file is written.")
  private boolean smoke;

  @Option(names = "--rehearsal", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Make the first policy's run, unmeasured, before the measured runs, and again while the JIT "
          + "compiled for more than 15 % of it (at most 4 times: 1 to 5 min more), so that no measured run "
          + "shares the cores with the compilers; --no-rehearsal to skip it. "
          + "Default: ${DEFAULT-VALUE}.")
  private boolean rehearsal;

  @Option(names = "--rounds", defaultValue = "1", description = "Run every policy this many times, each round in a"
      + " turned order, and pool each policy's requests over the rounds, so that a slot the shared host slowed moves"
      + " one round's figures rather than the comparison (each round takes as long as a run without rounds). "
      + "Default: ${DEFAULT-VALUE}.")
  private int rounds;

  @Option(names = "--out", description = "Results folder. Default: target/zerolayer-bench/<timestamp>.")
  private Path out;

  @Option(names = "--work-dir", defaultValue = "target/zerolayer-bench-policies",
      description = "Where the broker, registry and stores keep their files. Default: ${DEFAULT-VALUE}.")
  private Path workDir;

  @Override
  public Integer call() throws Exception {
    final PolicyBenchPlan plan = plan();
    final Path dir = workDir.toAbsolutePath();
    final Path results = out != null ? out : Path.of("target", "zerolayer-bench",
        LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    System.out.println("==> Starting the schema registry and the Kafka broker (KRaft) under " + dir);
    try (LocalCluster cluster = LocalCluster.start(dir)) {
      // The broker starts empty every time, so the stores must too.
      WorkDirs.deleteRecursively(dir.resolve("state"));
      final PolicyBenchmark.Results written = new PolicyBenchmark(cluster, dir.resolve("state"), System.out)
          .run(plan, TypedCommandLine.of(spec), results);
      System.out.println("Through Maven: mvn -B -Pup install -DskipTests -Dzerolayer.command=\""
          + TypedCommandLine.of(spec).substring("zerolayer ".length()) + "\"");
      return smoke ? smokeCheck(written, plan) : 0;
    }
  }

  PolicyBenchPlan plan() throws IOException {
    try {
      if (smoke) {
        final FleetShape fleet = new FleetShape(3, 2, Set.of());
        final Workload workload = new Workload.ClosedLoop(PromptMix.standard(load.seed), List.of(3),
            Duration.ofSeconds(5), Duration.ofMillis(200), Duration.ofSeconds(10));
        final Duration warmup = Duration.ofSeconds(1);
        return new PolicyBenchPlan(policies == null ? Contender.SMOKE : policies, fleet, workload, warmup,
            Scenario.OOM.schedule(fleet, warmup, workload.length()), "smoke: scenario oom", false);
      }
      final FleetShape fleet = load.fleet();
      final Workload workload = load.workload();
      final FaultSchedule schedule = faults != null ? FaultSchedule.parse(faults)
          : Scenario.named(scenario).orElseThrow(() -> new IllegalArgumentException("Unknown scenario '" + scenario
              + "': use one of " + Scenario.spellings())).schedule(fleet, load.warmup, workload.length());
      return new PolicyBenchPlan(policies == null ? Contender.DEFAULT : policies, fleet, workload, load.warmup,
          schedule, faults != null ? "--faults" : "scenario " + scenario, rehearsal, rounds);
    } catch (final IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  private static int smokeCheck(final PolicyBenchmark.Results written, final PolicyBenchPlan plan) {
    final List<String> problems = SmokeCheck.problems(written, plan.policies());
    if (problems.isEmpty()) {
      System.out.println("Smoke check passed: the table has every policy, and the CSV and charts were written.");
      return 0;
    }
    problems.forEach(p -> System.out.println("Smoke check failed: " + p));
    return 1;
  }
}
