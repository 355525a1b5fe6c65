package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * The policy benchmark's results as Markdown: a caption naming the command line and the setup,
 * then one table with the policies side by side and a column with Zerolayer's goals, then
 * links to the charts and the per-request CSV.
 */
final class PolicyBenchReport {

  static final String TABLE_FILE = "results.md";
  static final String CSV_FILE = "outcomes.csv";
  static final String DISTRIBUTION_CHART = "latency-distribution.png";
  static final String TIMELINE_CHART = "p99-over-time.png";

  private final String commandLine;
  private final List<String> setup;

  /**
   * @param setup lines describing the fleet, the workload, the faults and where data came from
   */
  PolicyBenchReport(final String commandLine, final List<String> setup) {
    this.commandLine = requireNonNull(commandLine, "commandLine");
    this.setup = List.copyOf(setup);
  }

  String render(final List<PolicyFigures> all) {
    final StringBuilder text = new StringBuilder();
    line(text, "Routing policies side by side on the local broker: `" + commandLine + "`");
    line(text, "");
    setup.forEach(s -> line(text, "- " + s));
    line(text, "");
    final Map<FigureRow, String> goals = BenchGoals.check(all);
    final StringBuilder header = new StringBuilder("| figure |");
    final StringBuilder rule = new StringBuilder("|---|");
    for (final PolicyFigures figures : all) {
      header.append(' ').append(figures.policy()).append(" |");
      rule.append("---:|");
    }
    line(text, header + " goal (" + BenchGoals.POLICY + ") |");
    line(text, rule + "---|");
    for (final FigureRow row : FigureRow.values()) {
      final StringBuilder cells = new StringBuilder("| " + row.label() + " |");
      all.forEach(f -> cells.append(' ').append(cell(row.of(f).text())).append(" |"));
      line(text, cells + " " + cell(goals.getOrDefault(row, "")) + " |");
    }
    line(text, "");
    line(text, "Latency and TTFT are over completed requests; errors and throttled requests are shares of every "
        + "measured request. Charts: [latency distribution](" + DISTRIBUTION_CHART + "), [P99 over time]("
        + TIMELINE_CHART + "); every request: [" + CSV_FILE + "](" + CSV_FILE + ").");
    return text.toString();
  }

  /** A figure's text as a table cell: a pipe would end the cell. */
  static String cell(final String text) {
    return text.replace("|", "\\|");
  }

  static void line(final StringBuilder text, final String line) {
    text.append(line).append(System.lineSeparator());
  }
}
