package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.deploy.stack.LocalCluster;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Every routing policy side by side: one after another on one broker, each with its own topics,
 * a fresh pipeline and fleet, the same workload and fault schedule, in one or more rounds. Writes
 * the Markdown table, a CSV of every request and the PNG charts to a results folder, and prints
 * the table.
 */
public final class PolicyBenchmark {

  /**
   * Where the results went.
   *
   * @param table the Markdown table's file; with several rounds, the table over all of them
   * @param csvs the per-request CSVs, one per round
   * @param charts the PNG charts, two per round
   * @param markdown the table's text
   */
  public record Results(Path table, List<Path> csvs, List<Path> charts, String markdown) {

    public Results {
      requireNonNull(table, "table");
      csvs = List.copyOf(csvs);
      charts = List.copyOf(charts);
      requireNonNull(markdown, "markdown");
    }
  }

  private final LocalCluster cluster;
  private final Path stateDir;
  private final PrintStream out;

  /**
   * @param stateDir where the apps keep their stores, one folder per policy's topic prefix
   */
  public PolicyBenchmark(final LocalCluster cluster, final Path stateDir, final PrintStream out) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.stateDir = requireNonNull(stateDir, "stateDir");
    this.out = requireNonNull(out, "out");
  }

  /**
   * Runs every policy of the plan in each of its rounds, writes the results to {@code resultsDir}
   * (with several rounds, each round's own results to a folder in it) and prints the table.
   */
  public Results run(final PolicyBenchPlan plan, final String commandLine, final Path resultsDir) throws Exception {
    requireNonNull(plan, "plan");
    Files.createDirectories(resultsDir);
    final String runId = Long.toString(System.currentTimeMillis(), 36);
    if (plan.rehearsal()) {
      rehearse(plan, runId);
    }
    final List<List<PolicyRun>> rounds = new ArrayList<>();
    for (int round = 0; round < plan.rounds(); round++) {
      rounds.add(runRound(plan, round, plan.rounds() == 1 ? runId : runId + "-r" + (round + 1)));
    }
    final Results results = plan.rounds() == 1 ? write(rounds.get(0), report(commandLine, plan), resultsDir)
        : writeRounds(rounds, commandLine, plan, resultsDir);
    out.println();
    out.print(results.markdown());
    out.println();
    out.println("Results in " + resultsDir.toAbsolutePath() + " (" + contents(plan) + ")");
    out.println("Command line: " + commandLine);
    return results;
  }

  private static String contents(final PolicyBenchPlan plan) {
    if (plan.rounds() == 1) {
      return String.join(", ", PolicyBenchReport.TABLE_FILE, PolicyBenchReport.CSV_FILE,
          PolicyBenchReport.DISTRIBUTION_CHART, PolicyBenchReport.TIMELINE_CHART);
    }
    return PolicyBenchReport.TABLE_FILE + " over the rounds; each round's own table, CSV and charts in "
        + RoundsReport.roundDir(0) + " to " + RoundsReport.roundDir(plan.rounds() - 1);
  }

  private List<PolicyRun> runRound(final PolicyBenchPlan plan, final int round, final String runId) throws Exception {
    final List<String> order = plan.order(round);
    if (plan.rounds() > 1) {
      out.println("==> Round " + (round + 1) + " of " + plan.rounds() + ": " + String.join(", ", order));
    }
    final PolicyRunner runner = new PolicyRunner(cluster, stateDir, plan, runId, out);
    final List<PolicyRun> runs = new ArrayList<>();
    for (final String policy : order) {
      runs.add(runner.run(policy));
    }
    return runs;
  }

  private static PolicyBenchReport report(final String commandLine, final PolicyBenchPlan plan) {
    return new PolicyBenchReport(commandLine, plan.describe());
  }

  private static Results writeRounds(final List<List<PolicyRun>> rounds, final String commandLine,
      final PolicyBenchPlan plan, final Path dir) throws IOException {
    final List<Path> csvs = new ArrayList<>();
    final List<Path> charts = new ArrayList<>();
    for (int round = 0; round < rounds.size(); round++) {
      final Results own = write(rounds.get(round), report(commandLine, plan),
          dir.resolve(RoundsReport.roundDir(round)));
      csvs.addAll(own.csvs());
      charts.addAll(own.charts());
    }
    final String markdown = new RoundsReport(commandLine, plan.describe()).render(plan.policies(), rounds);
    final Path table = dir.resolve(PolicyBenchReport.TABLE_FILE);
    Files.writeString(table, markdown, StandardCharsets.UTF_8);
    return new Results(table, csvs, charts, markdown);
  }

  /**
   * The first policy's run on topics of its own, unmeasured, repeated while the JIT is busy (see
   * {@link Rehearsals}), so that no measured run shares the cores with compilers still at work.
   */
  private void rehearse(final PolicyBenchPlan plan, final String runId) throws Exception {
    final String first = plan.policies().get(0);
    final PolicyBenchPlan rehearsal = new PolicyBenchPlan(List.of(first), plan.fleet(), plan.workload(),
        plan.warmup(), plan.faults(), plan.faultsText(), false);
    for (int turn = 1; ; turn++) {
      out.println("==> Rehearsal " + turn + ": the run of " + first + ", not measured, so that the JVMs have"
          + " compiled what the runs use");
      final PolicyRunner runner = new PolicyRunner(cluster, stateDir, rehearsal, runId + "-rehearsal" + turn, out);
      runner.run(first);
      final OptionalDouble share = runner.lastJitShare();
      final Rehearsals.Next next = Rehearsals.after(turn, share);
      if (share.isEmpty()) {
        out.println("==> This JVM does not say how long its JIT compiles: one rehearsal only");
      } else if (next == Rehearsals.Next.MEASURE) {
        out.println(Figure.format("==> The JIT compiled for %.0f %% of rehearsal %d: quiet enough to measure",
            100 * share.getAsDouble(), turn));
      } else {
        out.println(Figure.format("==> The JIT compiled for %.0f %% of rehearsal %d (more than %.0f %%)%s",
            100 * share.getAsDouble(), turn, 100 * Rehearsals.QUIET_JIT_SHARE,
            next == Rehearsals.Next.REHEARSE_AGAIN ? ": once more"
                : ": measuring anyway after " + Rehearsals.MAX_REHEARSALS + " rehearsals"));
      }
      if (next != Rehearsals.Next.REHEARSE_AGAIN) {
        return;
      }
    }
  }

  /** Writes one round's table, CSV and charts to {@code dir}. */
  private static Results write(final List<PolicyRun> runs, final PolicyBenchReport report, final Path dir)
      throws IOException {
    Files.createDirectories(dir);
    final String markdown = report.render(runs.stream().map(PolicyFigures::of).toList());
    final Path table = dir.resolve(PolicyBenchReport.TABLE_FILE);
    Files.writeString(table, markdown, StandardCharsets.UTF_8);
    final Path csv = dir.resolve(PolicyBenchReport.CSV_FILE);
    try (Writer writer = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      OutcomeCsv.write(runs, writer);
    }
    final Path distribution = dir.resolve(PolicyBenchReport.DISTRIBUTION_CHART);
    LatencyCharts.distribution(runs, distribution);
    final Path timeline = dir.resolve(PolicyBenchReport.TIMELINE_CHART);
    LatencyCharts.timeline(runs, timeline);
    return new Results(table, List.of(csv), List.of(distribution, timeline), markdown);
  }
}
