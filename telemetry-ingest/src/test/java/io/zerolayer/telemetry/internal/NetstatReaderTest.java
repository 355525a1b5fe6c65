package io.zerolayer.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.telemetry.MetricsSamples;
import io.zerolayer.telemetry.prometheus.PrometheusTextParser;
import org.junit.jupiter.api.Test;

class NetstatReaderTest {

  @Test
  void shouldReadTheHostsTcpSegmentCounters() {
    assertThat(NetstatReader.read(MetricsSamples.scrape(MetricsSamples.NODE_NETSTAT)))
        .contains(new TcpCounters(227, 54_915_039));
  }

  @Test
  void shouldReadNothingWithoutTheNetstatCollector() {
    assertThat(NetstatReader.read(PrometheusTextParser.parse("node_load1 0.5\n"))).isEmpty();
  }
}
