package io.zerolayer.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

/** The waterfall's tables (Markdown) and its chart of the segments per rate. */
public final class WaterfallReport {

  /** A segment of the way to the first token, from one hop to the next. */
  private record Segment(String label, ToLongFunction<HopTimes> millis) {
  }

  private static final List<Segment> SEGMENTS = List.of(
      new Segment("client send -> request readable on the ingress topic", h -> h.ackedMs() - h.sentMs()),
      new Segment("-> router decided", h -> h.decidedMs() - h.ackedMs()),
      new Segment("-> dispatch readable by the worker", h -> h.dispatchVisibleMs() - h.decidedMs()),
      new Segment("-> worker took the task", h -> h.workerStartMs() - h.dispatchVisibleMs()),
      new Segment("-> engine emitted the first chunk (engine TTFT)", HopTimes::engineTtftMs),
      new Segment("-> first chunk readable on the token topic", h -> h.firstChunkOnTokensMs() - h.engineFirstTokenMs()),
      new Segment("-> client read the first response chunk", h -> h.firstChunkAtClientMs() - h.firstChunkOnTokensMs()));
  /** Tokens at either end of a long answer whose chunks are compared. */
  static final int END_TOKENS = 256;

  private final String commandLine;

  public WaterfallReport(final String commandLine) {
    this.commandLine = commandLine;
  }

  /** Every phase's table, the summary against the targets, and the long answers' two ends. */
  public String render(final List<WaterfallBenchmark.Phase> phases) {
    final StringBuilder md = new StringBuilder();
    md.append("# Latency waterfall\n\n`").append(commandLine).append("`\n\n");
    md.append("Milliseconds, wall clock of one machine. Floor: one plain produce -> consume hop on the same broker,")
        .append(" sent at the same moments as the requests (acks=all, committed reads).\n");
    for (final WaterfallBenchmark.Phase phase : phases) {
      md.append("\n## ").append(phase.label()).append(String.format(Locale.ROOT,
          " (%d measured, %d without every hop timed; %d of the phase's %d requests without a complete answer"
              + " within %d s; %.0f tokens a complete answer)%n%n", phase.hops().size(), phase.unanswered(),
          phase.answers().incomplete(), phase.answers().requests(), WaterfallBenchmark.ANSWER_TIMEOUT.toSeconds(),
          phase.meanTokens()));
      if (phase.hops().isEmpty()) {
        md.append("Nothing measured.\n");
        continue;
      }
      md.append("| segment | p50 | p90 | p99 | max |\n|---|---:|---:|---:|---:|\n");
      SEGMENTS.forEach(s -> row(md, s.label(), values(phase, s.millis())));
      row(md, "**client time to first token**", values(phase, HopTimes::clientTtftMs));
      row(md, "**added time to first token** (client TTFT - engine TTFT)", values(phase, HopTimes::addedTtftMs));
      row(md, "**added inter-chunk delay** (engine emit -> client read, later chunks)", chunkDelays(phase, false));
      if (!phase.floorMs().isEmpty()) {
        row(md, "floor: one plain Kafka hop", phase.floorMs());
      }
      md.append(String.format(Locale.ROOT, "%nToken store changelog: %.0f bytes per generated token.%n",
          phase.changelogBytesPerToken()));
      routerLine(md, phase.router());
    }
    longAnswerEnds(md, phases);
    return md.toString();
  }

  /** What the router's transactions cost while the phase was measured, on average. */
  private static void routerLine(final StringBuilder md, final RouterTransactions.Totals router) {
    if (router.transactions() < 1) {
      md.append("Router: no transaction measured.\n");
      return;
    }
    md.append(String.format(Locale.ROOT, "Router while measured: %.0f transactions of %.1f records on average;"
            + " each spent %.1f ms routing its polls, then %.1f ms committing (its last records, offsets,"
            + " the commit).%n",
        router.transactions(), router.records() / router.transactions(),
        1000 * router.routeSeconds() / router.transactions(), 1000 * router.commitSeconds() / router.transactions()));
  }

  private static void longAnswerEnds(final StringBuilder md, final List<WaterfallBenchmark.Phase> phases) {
    final WaterfallBenchmark.Phase last = phases.get(phases.size() - 1);
    if (!last.longAnswers() || last.hops().isEmpty()) {
      return;
    }
    md.append("\n## Long answers: added inter-chunk delay near the first and near the last token\n\n");
    md.append("| chunks | p50 | p90 | p99 | max |\n|---|---:|---:|---:|---:|\n");
    row(md, "first " + END_TOKENS + " tokens", chunkDelays(last, false));
    row(md, "last " + END_TOKENS + " tokens", chunkDelays(last, true));
  }

  private static List<Long> values(final WaterfallBenchmark.Phase phase, final ToLongFunction<HopTimes> millis) {
    return phase.hops().stream().map(h -> millis.applyAsLong(h)).toList();
  }

  /**
   * Engine-to-client delays of the later chunks; for a long-answer phase only those within
   * {@link #END_TOKENS} of the first token, or of the last when {@code nearLast}.
   */
  private static List<Long> chunkDelays(final WaterfallBenchmark.Phase phase, final boolean nearLast) {
    final List<Long> delays = new ArrayList<>();
    for (final HopTimes hops : phase.hops()) {
      final int lastIndex = hops.laterChunks().stream().mapToInt(HopTimes.ChunkDelay::startIndex).max().orElse(0);
      for (final HopTimes.ChunkDelay chunk : hops.laterChunks()) {
        final boolean wanted = !phase.longAnswers() || (nearLast ? chunk.startIndex() > lastIndex - END_TOKENS
            : chunk.startIndex() < END_TOKENS);
        if (wanted) {
          delays.add(chunk.delayMs());
        }
      }
    }
    return delays;
  }

  private static void row(final StringBuilder md, final String label, final List<Long> values) {
    if (values.isEmpty()) {
      md.append("| ").append(label).append(" | - | - | - | - |\n");
      return;
    }
    final Percentiles p = new Percentiles(values);
    md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d |%n", label, p.at(50), p.at(90), p.at(99),
        p.max()));
  }

  /** A bar chart per percentile: each segment's figure at each rate. */
  public static void chart(final List<WaterfallBenchmark.Phase> phases, final double percentile, final Path png)
      throws IOException {
    final DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (final WaterfallBenchmark.Phase phase : phases) {
      if (phase.hops().isEmpty()) {
        continue;
      }
      for (int i = 0; i < SEGMENTS.size(); i++) {
        data.addValue(new Percentiles(values(phase, SEGMENTS.get(i).millis())).at(percentile), phase.label(),
            (i + 1) + ". " + shortLabel(SEGMENTS.get(i).label()));
      }
      final List<Long> delays = chunkDelays(phase, false);
      if (!delays.isEmpty()) {
        data.addValue(new Percentiles(delays).at(percentile), phase.label(), "later chunk: engine -> client");
      }
      if (!phase.floorMs().isEmpty()) {
        data.addValue(new Percentiles(phase.floorMs()).at(percentile), phase.label(), "floor: one Kafka hop");
      }
    }
    final JFreeChart chart = ChartFactory.createBarChart(String.format(Locale.ROOT,
        "Where a request's time goes, p%.0f per segment", percentile), "segment", "milliseconds", data,
        PlotOrientation.HORIZONTAL, true, false, false);
    chart.setBackgroundPaint(Color.WHITE);
    final CategoryPlot plot = chart.getCategoryPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    ChartUtils.saveChartAsPNG(png.toFile(), chart, 1100, 700);
  }

  private static String shortLabel(final String label) {
    return label.replace("-> ", "").replace("client send ", "");
  }
}
