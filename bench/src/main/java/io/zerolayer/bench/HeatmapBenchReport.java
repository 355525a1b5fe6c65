package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.heatmap.HeatmapConfig;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** The heatmap benchmark's result as Markdown: a caption naming the command line, then the tables. */
final class HeatmapBenchReport {

  private final String commandLine;
  private final HeatmapBenchmark.Plan plan;

  HeatmapBenchReport(final String commandLine, final HeatmapBenchmark.Plan plan) {
    this.commandLine = requireNonNull(commandLine, "commandLine");
    this.plan = requireNonNull(plan, "plan");
  }

  /**
   * @param runs every throughput run, in the order run
   * @param latency the live phase's figures
   */
  String render(final List<ThroughputRun> runs, final ScoreLatency latency) {
    final StringBuilder text = new StringBuilder();
    line(text, "");
    line(text, "Heatmap benchmark on the local broker: `%s`", commandLine);
    line(text, "");
    line(text, "Throughput: %,d telemetry records of %d instances over %d zones (%s of samples); every run a fresh "
        + "application id reading from the start, the apps taking turns; heatmap-streams accepts samples up to %d "
        + "min old (%s).", plan.records(), plan.instances(), TelemetrySamples.ZONES.size(),
        seconds(new TelemetrySamples("", plan.instances(), 0).backlogSpan(plan.records())),
        HeatmapBenchmark.BACKLOG_CLOCK_SKEW.toMinutes(), HeatmapConfig.MAX_CLOCK_SKEW_MS);
    line(text, "");
    line(text, "| app | run | records | dead-lettered | startup s | consume s | records/s |");
    line(text, "|---|---:|---:|---:|---:|---:|---:|");
    for (final ThroughputRun run : runs) {
      line(text, "| %s | %d | %,d | %,d | %.2f | %.2f | %,.0f |", run.app(), run.round(), run.records(),
          run.deadLettered(), run.startup().toNanos() / 1e9, run.consume().toNanos() / 1e9, run.recordsPerSecond());
    }
    line(text, "| %s / %s, median records/s | | | | | | %.2f |", HeatmapBenchmark.HEATMAP, HeatmapBenchmark.PASS_THROUGH,
        new ThroughputComparison(runs).ratio(HeatmapBenchmark.HEATMAP, HeatmapBenchmark.PASS_THROUGH));
    line(text, "");
    line(text, "Latency: %d instances at 20 samples/s for %s after %s of warm-up; a read_committed consumer of "
        + "the score topic.", plan.liveInstances(), seconds(plan.duration()), seconds(plan.warmup()));
    line(text, "");
    line(text, "| measured | p50 | p90 | p99 | max | count |");
    line(text, "|---|---:|---:|---:|---:|---:|");
    line(text, "%s rows |", percentiles("telemetry sample to score row read, ms", latency.latenciesMs()));
    line(text, "%s s |", percentiles("score rows read per second", latency.rowsPerSecond()));
    return text.toString();
  }

  private static String percentiles(final String label, final List<Long> values) {
    if (values.isEmpty()) {
      return "| " + label + " | - | - | - | - | 0";
    }
    final Percentiles p = new Percentiles(values);
    return String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %,d", label, p.at(50), p.at(90), p.at(99), p.max(),
        p.count());
  }

  private static String seconds(final Duration duration) {
    return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
  }

  private static void line(final StringBuilder text, final String format, final Object... args) {
    text.append(String.format(Locale.ROOT, format, args)).append(System.lineSeparator());
  }
}
