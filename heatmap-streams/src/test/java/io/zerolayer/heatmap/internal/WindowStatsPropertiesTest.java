package io.zerolayer.heatmap.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;

/** A window's mean, max and nearest-rank 95th percentile are those of its sorted samples. */
class WindowStatsPropertiesTest {

  @Property
  void shouldAgreeWithTheSortedSamples(
      @ForAll @Size(min = 1, max = 300) final List<@DoubleRange(min = -1e6, max = 1e6) Double> values) {
    final List<double[]> samples = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      final double[] sample = new double[Metric.COUNT];
      for (int m = 0; m < Metric.COUNT; m++) {
        // Each metric a different order of the same values, ties included
        sample[m] = values.get((i * (m + 1)) % values.size());
      }
      samples.add(sample);
    }

    final WindowStats stats = WindowStats.of(0, 1_000, samples);

    for (final Metric metric : Metric.values()) {
      final double[] sorted = samples.stream().mapToDouble(sample -> sample[metric.ordinal()]).sorted().toArray();
      final int rank = (int) Math.ceil(WindowStats.PERCENTILE * sorted.length) - 1;
      assertThat(stats.max(metric)).isEqualTo(sorted[sorted.length - 1]);
      assertThat(stats.p95(metric)).isEqualTo(sorted[rank]);
      assertThat(stats.mean(metric)).isCloseTo(Arrays.stream(sorted).average().orElseThrow(),
          org.assertj.core.data.Offset.offset(1e-6));
    }
  }
}
