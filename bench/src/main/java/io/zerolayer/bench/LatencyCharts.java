package io.zerolayer.bench;

import io.zerolayer.fleet.fault.AppliedFault;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The benchmark's PNG charts: each policy's latency distribution, and its P99 over time with the faults marked. */
final class LatencyCharts {

  static final Duration P99_WINDOW = Duration.ofSeconds(5);
  private static final int WIDTH = 1100;
  private static final int HEIGHT = 620;
  private static final int MAX_POINTS = 400;
  /** Colours that stay apart on white and in print. */
  private static final List<Color> PALETTE = List.of(new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
      new Color(0x9467bd), new Color(0xff7f0e), new Color(0x8c564b), new Color(0x17becf));

  private static final BasicStroke DASHED = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f,
      new float[] {7f, 4f}, 0f);

  private LatencyCharts() {
  }

  /** Share of measured completed requests at or under each latency, one line per policy. */
  static void distribution(final List<PolicyRun> runs, final Path png) throws IOException {
    final XYSeriesCollection data = new XYSeriesCollection();
    for (final PolicyRun run : runs) {
      final long[] sorted = run.measured().stream().filter(o -> o.status() == Status.COMPLETED)
          .mapToLong(o -> Math.max(1, o.latency().toMillis())).sorted().toArray();
      final XYSeries series = new XYSeries(run.policy());
      final int step = Math.max(1, sorted.length / MAX_POINTS);
      for (int i = 0; i < sorted.length; i += step) {
        series.add(sorted[i], 100.0 * (i + 1) / sorted.length);
      }
      if (sorted.length > 0) {
        series.add(sorted[sorted.length - 1], 100.0);
      }
      data.addSeries(series);
    }
    final JFreeChart chart = ChartFactory.createXYLineChart("Latency distribution of completed requests",
        "latency, ms (log scale)", "requests at or under it, %", data);
    chart.getXYPlot().setDomainAxis(logAxis("latency, ms (log scale)"));
    save(chart, png);
  }

  /** Rolling P99 latency per second of each policy's load; the warm-up's end and each fault marked. */
  static void timeline(final List<PolicyRun> runs, final Path png) throws IOException {
    final XYSeriesCollection data = new XYSeriesCollection();
    for (final PolicyRun run : runs) {
      final XYSeries series = new XYSeries(run.policy());
      P99Timeline.of(run, P99_WINDOW).forEach(p -> series.add(p.seconds(), Math.max(1, p.p99Ms())));
      data.addSeries(series);
    }
    final JFreeChart chart = ChartFactory.createXYLineChart(
        "P99 latency over the last " + P99_WINDOW.toSeconds() + " s, faults marked", "seconds from the load's start",
        "P99 latency, ms (log scale)", data);
    final XYPlot plot = chart.getXYPlot();
    plot.setRangeAxis(logAxis("P99 latency, ms (log scale)"));
    if (!runs.isEmpty()) {
      final PolicyRun first = runs.get(0);
      final IntervalMarker warmup = new IntervalMarker(0, (first.measureFromMs() - first.loadStartMs()) / 1000.0,
          new Color(235, 235, 235));
      warmup.setLabel("warm-up");
      warmup.setLabelAnchor(RectangleAnchor.BOTTOM);
      warmup.setLabelTextAnchor(TextAnchor.BOTTOM_CENTER);
      plot.addDomainMarker(warmup, Layer.BACKGROUND);
      final List<AppliedFault> faults = first.faults();
      for (int i = 0; i < faults.size(); i++) {
        final AppliedFault fault = faults.get(i);
        mark(plot, fault.sinceStart().toMillis() / 1000.0, fault.fault().kind() + " " + fault.fault().target(), i);
      }
    }
    save(chart, png);
  }

  private static void mark(final XYPlot plot, final double seconds, final String label, final int index) {
    final ValueMarker marker = new ValueMarker(seconds, Color.DARK_GRAY, new BasicStroke(1f, BasicStroke.CAP_BUTT,
        BasicStroke.JOIN_MITER, 1f, new float[] {4f, 4f}, 0f));
    marker.setLabel(label);
    marker.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
    marker.setLabelTextAnchor(TextAnchor.TOP_LEFT);
    // Staggered, so the labels of faults close together stay readable.
    marker.setLabelOffset(new RectangleInsets(4 + 14 * (index % 5), 2, 2, 2));
    plot.addDomainMarker(marker);
  }

  private static LogAxis logAxis(final String label) {
    final LogAxis axis = new LogAxis(label);
    axis.setNumberFormatOverride(new DecimalFormat("#,##0"));
    axis.setSmallestValue(1);
    return axis;
  }

  private static void save(final JFreeChart chart, final Path png) throws IOException {
    chart.setBackgroundPaint(Color.WHITE);
    final XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    // One colour per policy; its run without cut-over dashed in the same colour.
    final Map<String, Color> colours = new HashMap<>();
    for (int i = 0; i < plot.getDataset().getSeriesCount(); i++) {
      final Contender contender = Contender.parse(String.valueOf(plot.getDataset().getSeriesKey(i)));
      final Color colour = colours.computeIfAbsent(contender.policy(),
          policy -> PALETTE.get(colours.size() % PALETTE.size()));
      plot.getRenderer().setSeriesStroke(i, contender.cutover() ? new BasicStroke(2f) : DASHED);
      plot.getRenderer().setSeriesPaint(i, colour);
    }
    ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
  }
}
