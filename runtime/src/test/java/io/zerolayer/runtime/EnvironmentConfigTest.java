package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EnvironmentConfigTest {

  @Test
  void shouldMapConfigKeysToTheirVariables() {
    assertThat(EnvironmentConfig.variable("heatmap.emit.interval.ms")).isEqualTo("ZEROLAYER_HEATMAP_EMIT_INTERVAL_MS");
  }
}
