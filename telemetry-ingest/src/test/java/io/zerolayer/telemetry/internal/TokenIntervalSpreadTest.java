package io.zerolayer.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.telemetry.MetricsSamples;
import io.zerolayer.telemetry.prometheus.Histogram;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TokenIntervalSpreadTest {

  @Test
  void shouldReadZeroForASteadyStreamInsideOneBucket() {
    assertThat(TokenIntervalSpread.stddevMs(histogram(0, 40, 40))).hasValue(0.0);
  }

  @Test
  void shouldPlaceEachBucketsIntervalsAtItsMidpoint() {
    // 10 intervals at 25 ms (0-50 ms bucket) and 10 at 75 ms (50-100 ms): mean 50, deviation 25.
    assertThat(TokenIntervalSpread.stddevMs(histogram(10, 20, 20)).getAsDouble()).isCloseTo(25.0, within(1e-9));
  }

  @Test
  void shouldPlaceIntervalsAboveTheLastBoundAtThatBound() {
    // 1 interval at 25 ms and 1 above 100 ms, counted at 100 ms: mean 62.5, deviation 37.5.
    assertThat(TokenIntervalSpread.stddevMs(histogram(1, 1, 2)).getAsDouble()).isCloseTo(37.5, within(1e-9));
  }

  @Test
  void shouldMeasureNothingWithFewerThanTwoIntervals() {
    assertThat(TokenIntervalSpread.stddevMs(histogram(0, 1, 1))).isEmpty();
  }

  @Test
  void shouldEstimateTheSpreadOfTheRealVllmV1InterTokenHistogram() {
    final Histogram itl = MetricsSamples.scrape(MetricsSamples.VLLM_V1)
        .histograms("vllm:inter_token_latency_seconds").get(0);

    // Buckets with observations: 4827 in 50-75 ms (62.5), 17233-4827 = 12406 in 75-100 (87.5),
    // 17416-17233 = 183 in 100-150 (125), 17807-17416 = 391 in 150-200 (175); n = 17807.
    // mean = (4827*62.5 + 12406*87.5 + 183*125 + 391*175) / 17807 = 83.030 ms
    // variance = sum(n_i * (m_i - mean)^2) / n = 332.00 ms^2, deviation 18.221 ms.
    assertThat(TokenIntervalSpread.stddevMs(itl).getAsDouble()).isCloseTo(18.221, within(0.001));
  }

  @Test
  void shouldEstimateTheSpreadOfTheRealSglangTimePerOutputTokenHistogram() {
    final Histogram tpot = MetricsSamples.scrape(MetricsSamples.SGLANG)
        .histograms("sglang:time_per_output_token_seconds").get(0);

    // 19 buckets; the 11343 intervals above 2.5 s count at 2.5 s and dominate the spread.
    // Midpoint mean 116.80 ms (the exact mean, sum/count, is 117.15 ms), deviation 154.740 ms.
    assertThat(TokenIntervalSpread.stddevMs(tpot).getAsDouble()).isCloseTo(154.740, within(0.001));
  }

  /** Buckets 0-50 ms, 50-100 ms and +Inf holding the given numbers of intervals, cumulatively. */
  private static Histogram histogram(final double upTo50, final double upTo100, final double count) {
    return new Histogram(Map.of(), List.of(new Histogram.Bucket(0.05, upTo50), new Histogram.Bucket(0.1, upTo100),
        new Histogram.Bucket(Double.POSITIVE_INFINITY, count)), 0.0, count);
  }
}
