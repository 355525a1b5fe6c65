package io.zerolayer.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.telemetry.MetricsSamples;
import io.zerolayer.telemetry.prometheus.PrometheusTextParser;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DcgmReaderTest {

  @Test
  void shouldTurnUtilizationPercentIntoAFractionAndFramebufferMibIntoBytes() {
    final GpuReading t4 = DcgmReader.read(MetricsSamples.scrape(MetricsSamples.DCGM_T4), Set.of());

    // GPU_UTIL 0 %, FB_USED 0 MiB: an idle T4.
    assertThat(t4.utilization()).hasValue(0.0);
    assertThat(t4.vramUsedBytes()).hasValue(0L);
  }

  @Test
  void shouldFallBackToGraphicsEngineActiveAndSkipMigInstances() {
    final GpuReading a100 = DcgmReader.read(MetricsSamples.scrape(MetricsSamples.DCGM_A100_MIG), Set.of());

    // No GPU_UTIL on this page; the whole GPU's GR_ENGINE_ACTIVE is 0.995630, the MIG
    // instance's 0.995687 is skipped. FB_USED 4845 MiB = 4845 * 1048576 bytes.
    assertThat(a100.utilization()).hasValue(0.995630);
    assertThat(a100.vramUsedBytes()).hasValue(5_080_350_720L);
  }

  @Test
  void shouldAverageUtilizationAndAddMemoryOverTheChosenGpus() {
    final Scrape twoGpus = PrometheusTextParser.parse(MetricsSamples.text(MetricsSamples.DCGM_T4)
        + secondGpu("DCGM_FI_DEV_GPU_UTIL", 60) + secondGpu("DCGM_FI_DEV_FB_USED", 1024));

    final GpuReading both = DcgmReader.read(twoGpus, Set.of());
    final GpuReading second = DcgmReader.read(twoGpus, Set.of("1"));
    final GpuReading absent = DcgmReader.read(twoGpus, Set.of("7"));

    assertThat(both.utilization()).hasValue(0.30);
    assertThat(both.vramUsedBytes()).hasValue(1024L << 20);
    assertThat(second.utilization()).hasValue(0.60);
    assertThat(absent.utilization()).isEmpty();
    assertThat(absent.vramUsedBytes()).isEmpty();
  }

  /** The T4 page's line for {@code gpu="0"}, as a second GPU {@code gpu="1"} would print it. */
  private static String secondGpu(final String metric, final int value) {
    final String line = MetricsSamples.text(MetricsSamples.DCGM_T4).lines()
        .filter(candidate -> candidate.startsWith(metric + "{")).findFirst().orElseThrow();
    return line.replace("gpu=\"0\"", "gpu=\"1\"").replace("nvidia0", "nvidia1")
        .replaceFirst(" \\S+$", " " + value) + "\n";
  }
}
