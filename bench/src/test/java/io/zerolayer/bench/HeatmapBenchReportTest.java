package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeatmapBenchReportTest {

  private static final HeatmapBenchmark.Plan PLAN =
      new HeatmapBenchmark.Plan(50_000, 200, 2, 50, Duration.ofSeconds(10), Duration.ofSeconds(3));
  private static final String COMMAND = "zerolayer bench-heatmap --records 50000 --duration 10s";

  @Test
  void shouldPrintEveryRunTheRatioOfTheMediansAndTheLatencyUnderACaptionWithTheCommandLine() {
    final List<ThroughputRun> runs = List.of(
        run(HeatmapBenchmark.PASS_THROUGH, 1, 2_000), run(HeatmapBenchmark.HEATMAP, 1, 5_000),
        run(HeatmapBenchmark.PASS_THROUGH, 2, 2_500),
        new ThroughputRun(HeatmapBenchmark.HEATMAP, 2, 50_000, Duration.ofMillis(1500), Duration.ofMillis(4_000), 1_200));
    final ScoreLatency latency = new ScoreLatency(List.of(120L, 150L, 180L, 400L), List.of(250L, 240L));

    final String text = new HeatmapBenchReport(COMMAND, PLAN).render(runs, latency);

    assertThat(text.lines()).contains(
        "Heatmap benchmark on the local broker: `zerolayer bench-heatmap --records 50000 --duration 10s`",
        "Throughput: 50,000 telemetry records of 200 instances over 4 zones (12.45 s of samples); every run a fresh "
            + "application id reading from the start, the apps taking turns; heatmap-streams accepts samples up to "
            + "60 min old (heatmap.max.clock.skew.ms).",
        "| app | run | records | dead-lettered | startup s | consume s | records/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
        "| pass-through | 1 | 50,000 | 0 | 1.50 | 2.00 | 25,000 |",
        "| heatmap | 1 | 50,000 | 0 | 1.50 | 5.00 | 10,000 |",
        "| pass-through | 2 | 50,000 | 0 | 1.50 | 2.50 | 20,000 |",
        "| heatmap | 2 | 50,000 | 1,200 | 1.50 | 4.00 | 12,500 |",
        // medians: heatmap 11,250/s, pass-through 22,500/s
        "| heatmap / pass-through, median records/s | | | | | | 0.50 |",
        "Latency: 50 instances at 20 samples/s for 10 s after 3 s of warm-up; a read_committed consumer of the "
            + "score topic.",
        "| telemetry sample to score row read, ms | 150 | 400 | 400 | 400 | 4 rows |",
        "| score rows read per second | 240 | 250 | 250 | 250 | 2 s |");
  }

  @Test
  void shouldShowDashesWhenNoScoreRowArrived() {
    final String text = new HeatmapBenchReport(COMMAND, PLAN).render(
        List.of(run(HeatmapBenchmark.PASS_THROUGH, 1, 2_000), run(HeatmapBenchmark.HEATMAP, 1, 4_000)),
        new ScoreLatency(List.of(), List.of(0L, 0L)));

    assertThat(text.lines()).contains(
        "| telemetry sample to score row read, ms | - | - | - | - | 0 rows |",
        "| score rows read per second | 0 | 0 | 0 | 0 | 2 s |");
  }

  private static ThroughputRun run(final String app, final int round, final long consumeMs) {
    return new ThroughputRun(app, round, 50_000, Duration.ofMillis(1500), Duration.ofMillis(consumeMs), 0);
  }
}
