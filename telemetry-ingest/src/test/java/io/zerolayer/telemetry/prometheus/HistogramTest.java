package io.zerolayer.telemetry.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistogramTest {

  @Test
  void shouldKeepOnlyTheObservationsMadeSinceAnEarlierScrape() {
    final Histogram earlier = histogram(0.1, 2, 3, 0.5);
    final Histogram later = histogram(0.1, 5, 9, 1.25);

    assertThat(later.since(earlier)).isEqualTo(histogram(0.1, 3, 6, 0.75));
  }

  @Test
  void shouldTreatEverythingAsNewWhenTheServerRestartedInBetween() {
    final Histogram beforeRestart = histogram(0.1, 50, 90, 12.0);
    final Histogram afterRestart = histogram(0.1, 2, 3, 0.5);

    assertThat(afterRestart.since(beforeRestart)).isEqualTo(afterRestart);
  }

  @Test
  void shouldTreatEverythingAsNewWhenTheBucketsChanged() {
    final Histogram oldBuckets = histogram(0.2, 1, 1, 0.1);
    final Histogram newBuckets = histogram(0.1, 2, 3, 0.5);

    assertThat(newBuckets.since(oldBuckets)).isEqualTo(newBuckets);
  }

  @Test
  void shouldAddTheEnginesOfOneServer() {
    assertThat(histogram(0.1, 2, 3, 0.5).plus(histogram(0.1, 1, 4, 1.0))).isEqualTo(histogram(0.1, 3, 7, 1.5));
    assertThatThrownBy(() -> histogram(0.1, 2, 3, 0.5).plus(histogram(0.2, 2, 3, 0.5)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldRefuseAnInfBucketThatDiffersFromTheCount() {
    assertThatThrownBy(() -> new Histogram(Map.of(), List.of(new Histogram.Bucket(Double.POSITIVE_INFINITY, 3)), 1, 4))
        .hasMessageContaining("+Inf bucket 3.0 differs from count 4.0");
  }

  /** One finite bucket {@code le=bound} and {@code +Inf}. */
  private static Histogram histogram(final double bound, final double atOrBelow, final double count,
      final double sum) {
    return new Histogram(Map.of(), List.of(new Histogram.Bucket(bound, atOrBelow),
        new Histogram.Bucket(Double.POSITIVE_INFINITY, count)), sum, count);
  }
}
