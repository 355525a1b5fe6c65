package io.zerolayer.heatmap;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Settings that cannot work together are refused at start, naming the setting and why. */
class HeatmapConfigTest {

  @Test
  void shouldRefuseAWindowThatIsNotMadeOfWholeSlices() {
    assertThatThrownBy(() -> new HeatmapConfig(Map.of(HeatmapConfig.WINDOW_SIZE_MS, "1000",
        HeatmapConfig.WINDOW_ADVANCE_MS, "300")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(HeatmapConfig.WINDOW_SIZE_MS)
        .hasMessageContaining("must be a multiple of " + HeatmapConfig.WINDOW_ADVANCE_MS);
  }

  @Test
  void shouldRefuseSlicesKeptShorterThanAHistoryWindow() {
    assertThatThrownBy(() -> new HeatmapConfig(Map.of(HeatmapConfig.WINDOW_RETENTION_MS, "30000",
        HeatmapConfig.HISTORY_WINDOW_MS, "60000")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(HeatmapConfig.WINDOW_RETENTION_MS);
  }
}
