package io.zerolayer.deploy.bench;

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

/**
 * Every routing policy side by side: one after another on one broker, each with its own topics,
 * a fresh pipeline and fleet, the same workload and fault schedule. Writes the Markdown table, a
 * CSV of every request and the PNG charts to a results folder, and prints the table.
 */
public final class PolicyBenchmark {

  /**
   * Where the results went.
   *
   * @param table the Markdown table's file
   * @param csv the per-request CSV
   * @param charts the PNG charts
   * @param markdown the table's text
   */
  public record Results(Path table, Path csv, List<Path> charts, String markdown) {
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

  /** Runs every policy of the plan, writes the results to {@code resultsDir} and prints the table. */
  public Results run(final PolicyBenchPlan plan, final String commandLine, final Path resultsDir) throws Exception {
    requireNonNull(plan, "plan");
    Files.createDirectories(resultsDir);
    final String runId = Long.toString(System.currentTimeMillis(), 36);
    if (plan.rehearsal()) {
      rehearse(plan, runId);
    }
    final PolicyRunner runner = new PolicyRunner(cluster, stateDir, plan, runId, out);
    final List<PolicyRun> runs = new ArrayList<>();
    for (final String policy : plan.policies()) {
      runs.add(runner.run(policy));
    }
    final List<PolicyFigures> figures = runs.stream().map(PolicyFigures::of).toList();
    final String markdown = new PolicyBenchReport(commandLine, plan.describe()).render(figures);
    final Results results = write(runs, markdown, resultsDir);
    out.println();
    out.print(markdown);
    out.println();
    out.println("Results in " + resultsDir.toAbsolutePath() + " (" + PolicyBenchReport.TABLE_FILE + ", "
        + PolicyBenchReport.CSV_FILE + ", " + PolicyBenchReport.DISTRIBUTION_CHART + ", "
        + PolicyBenchReport.TIMELINE_CHART + ")");
    out.println("Command line: " + commandLine);
    return results;
  }

  /** The first policy's run, made once on topics of its own; its figures count nowhere. */
  private void rehearse(final PolicyBenchPlan plan, final String runId) throws Exception {
    final String first = plan.policies().get(0);
    out.println("==> Rehearsal: the run of " + first + " once, not measured, so that the JVMs have compiled what"
        + " the runs use");
    final PolicyBenchPlan rehearsal = new PolicyBenchPlan(List.of(first), plan.fleet(), plan.workload(),
        plan.warmup(), plan.faults(), plan.faultsText(), false);
    new PolicyRunner(cluster, stateDir, rehearsal, runId + "-rehearsal", out).run(first);
  }

  private static Results write(final List<PolicyRun> runs, final String markdown, final Path dir)
      throws IOException {
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
    return new Results(table, csv, List.of(distribution, timeline), markdown);
  }
}
