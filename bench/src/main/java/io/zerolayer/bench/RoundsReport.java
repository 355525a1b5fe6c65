package io.zerolayer.bench;

import static io.zerolayer.bench.PolicyBenchReport.cell;
import static io.zerolayer.bench.PolicyBenchReport.line;
import static java.util.Objects.requireNonNull;

import io.zerolayer.fleet.load.RequestOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The results of a benchmark made in several rounds, as Markdown: each policy's measured
 * requests of every round pooled, its P99 in each round with the slot it ran in, the P99 goal
 * on the pooled P99s and on each round's, each round's goal verdicts, and links to each round's
 * own table. Pooling is what makes the P99s comparable on a shared host: one slot slowed by the
 * host moves one round's P99, not the pooled one.
 */
final class RoundsReport {

  private final String commandLine;
  private final List<String> setup;

  /**
   * @param setup lines describing the fleet, the workload, the faults and the rounds
   */
  RoundsReport(final String commandLine, final List<String> setup) {
    this.commandLine = requireNonNull(commandLine, "commandLine");
    this.setup = List.copyOf(setup);
  }

  /** The folder of round {@code round} (0 first) in the results folder, with that round's own table. */
  static String roundDir(final int round) {
    return "round-" + (round + 1);
  }

  /**
   * @param policies the policies in the plan's order, the table's columns
   * @param rounds each round's runs, in the order they ran
   */
  String render(final List<String> policies, final List<List<PolicyRun>> rounds) {
    final List<Map<String, PolicyRun>> byPolicy = rounds.stream()
        .map(runs -> runs.stream().collect(Collectors.toMap(PolicyRun::policy, Function.identity()))).toList();
    final List<List<PolicyFigures>> figures = rounds.stream()
        .map(runs -> runs.stream().map(PolicyFigures::of).toList()).toList();
    final StringBuilder text = new StringBuilder();
    line(text, "Routing policies side by side on the local broker, in " + rounds.size() + " rounds: `" + commandLine
        + "`");
    line(text, "");
    setup.forEach(s -> line(text, "- " + s));
    line(text, "");
    line(text, "Each policy's measured requests of all " + rounds.size() + " rounds together, and its P99 in each"
        + " round:");
    line(text, "");
    pooledTable(text, policies, rounds, byPolicy, figures);
    line(text, "");
    line(text, "The goals in each round, from the round's own table:");
    line(text, "");
    goalsTable(text, figures);
    line(text, "");
    line(text, "Each round's own table, CSV and charts: " + IntStream.range(0, rounds.size())
        .mapToObj(r -> "[round " + (r + 1) + "](" + roundDir(r) + "/" + PolicyBenchReport.TABLE_FILE + ")")
        .collect(Collectors.joining(", ")) + ".");
    return text.toString();
  }

  private static void pooledTable(final StringBuilder text, final List<String> policies,
      final List<List<PolicyRun>> rounds, final List<Map<String, PolicyRun>> byPolicy,
      final List<List<PolicyFigures>> figures) {
    line(text, "| figure |" + policies.stream().map(p -> " " + p + " |").collect(Collectors.joining())
        + " goal (" + BenchGoals.POLICY + ") |");
    line(text, "|---|" + "---:|".repeat(policies.size()) + "---|");
    line(text, "| slot in rounds " + IntStream.rangeClosed(1, rounds.size()).mapToObj(Integer::toString)
        .collect(Collectors.joining(" / ")) + " |" + policies.stream().map(p -> " " + rounds.stream()
            .map(runs -> Integer.toString(slot(runs, p))).collect(Collectors.joining(" / ")) + " |")
        .collect(Collectors.joining()) + "  |");
    final Map<String, RequestFigures> pooled = new LinkedHashMap<>();
    policies.forEach(p -> pooled.put(p, pool(byPolicy.stream().map(m -> m.get(p)).toList())));
    for (final FigureRow row : FigureRow.values()) {
      if (!row.clientView()) {
        continue;
      }
      final String goal = row == FigureRow.LATENCY_P99 ? BenchGoals.p99(values(pooled, row)) : "";
      line(text, "| " + row.label() + ", all rounds |" + policies.stream()
          .map(p -> " " + cell(row.of(pooled.get(p)).text()) + " |").collect(Collectors.joining())
          + " " + cell(goal) + " |");
    }
    for (int r = 0; r < rounds.size(); r++) {
      final Map<String, RequestFigures> round = new LinkedHashMap<>();
      final Map<String, PolicyFigures> ran = figures.get(r).stream()
          .collect(Collectors.toMap(PolicyFigures::policy, Function.identity()));
      policies.forEach(p -> round.put(p, ran.get(p).requests()));
      line(text, "| " + FigureRow.LATENCY_P99.label() + ", round " + (r + 1) + " |" + policies.stream()
          .map(p -> " " + FigureRow.LATENCY_P99.of(round.get(p)).text() + " |").collect(Collectors.joining())
          + " " + cell(BenchGoals.p99(values(round, FigureRow.LATENCY_P99))) + " |");
    }
  }

  private static void goalsTable(final StringBuilder text, final List<List<PolicyFigures>> rounds) {
    final List<Map<FigureRow, String>> goals = rounds.stream().map(BenchGoals::check).toList();
    line(text, "| goal (" + BenchGoals.POLICY + ") |" + IntStream.rangeClosed(1, rounds.size())
        .mapToObj(r -> " round " + r + " |").collect(Collectors.joining()));
    line(text, "|---|" + "---|".repeat(rounds.size()));
    for (final FigureRow row : FigureRow.values()) {
      if (goals.stream().anyMatch(g -> g.containsKey(row))) {
        line(text, "| " + row.label() + " |" + goals.stream().map(g -> " " + cell(g.getOrDefault(row, "")) + " |")
            .collect(Collectors.joining()));
      }
    }
  }

  /** The client's figures over the measured requests of all the runs, in all their measured windows. */
  static RequestFigures pool(final List<PolicyRun> runs) {
    final List<RequestOutcome> measured = new ArrayList<>();
    long windowMs = 0;
    for (final PolicyRun run : runs) {
      measured.addAll(run.measured());
      windowMs += run.measuredWindowMs();
    }
    return RequestFigures.of(measured, windowMs);
  }

  private static int slot(final List<PolicyRun> runs, final String policy) {
    return IntStream.range(0, runs.size()).filter(i -> runs.get(i).policy().equals(policy)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(policy + " did not run in every round")) + 1;
  }

  private static Map<String, OptionalDouble> values(final Map<String, RequestFigures> figures, final FigureRow row) {
    final Map<String, OptionalDouble> values = new LinkedHashMap<>();
    figures.forEach((policy, f) -> values.put(policy, row.of(f).value()));
    return values;
  }
}
