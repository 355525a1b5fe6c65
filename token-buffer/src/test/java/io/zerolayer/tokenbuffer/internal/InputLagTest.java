package io.zerolayer.tokenbuffer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class InputLagTest {

  private final Map<MetricName, Metric> metrics = new HashMap<>();
  private final InputLag lag = new InputLag("inference.tokens.v1", 100);

  InputLagTest() {
    lag.readFrom(() -> metrics);
  }

  private void lag(final String topic, final int partition, final double records) {
    final MetricName name = new MetricName("records-lag", "consumer-fetch-manager-metrics", "",
        Map.of("client-id", "t-StreamThread-1-consumer", "topic", topic, "partition", String.valueOf(partition)));
    metrics.put(name, new Metric() {
      @Override
      public MetricName metricName() {
        return name;
      }

      @Override
      public Object metricValue() {
        return records;
      }
    });
  }

  @Test
  void shouldCallATaskBehindOnlyPastTheBoundOnItsOwnTokensPartition() {
    lag("inference.tokens.v1", 0, 101);
    lag("inference.tokens.v1", 1, 100);
    lag("routing.decisions.v1", 2, 5_000);

    assertThat(lag.behind(0, 0)).isTrue();
    assertThat(lag.behind(1, 0)).as("at the bound").isFalse();
    assertThat(lag.behind(2, 0)).as("another topic's lag").isFalse();
    assertThat(lag.behind(3, 0)).as("no metric yet").isFalse();
  }

  @Test
  void shouldReadTheTopicAsTheConsumerTagsItWithUnderscores() {
    lag("inference_tokens_v1", 4, 500);
    lag("inference_tokens_v2", 5, 500);

    assertThat(lag.behind(4, 0)).isTrue();
    assertThat(lag.behind(5, 0)).isFalse();
  }

  @Test
  void shouldReadTheMetricsAgainOnlyAfterAQuarterSecond() {
    lag("inference.tokens.v1", 0, 5_000);
    assertThat(lag.behind(0, 1_000)).isTrue();

    lag("inference.tokens.v1", 0, 0);
    assertThat(lag.behind(0, 1_100)).as("the last read stands").isTrue();
    assertThat(lag.behind(0, 1_250)).isFalse();
  }

  @Test
  void shouldIgnoreALagNotKnownYet() {
    lag("inference.tokens.v1", 0, Double.NaN);

    assertThat(lag.behind(0, 0)).isFalse();
  }
}
