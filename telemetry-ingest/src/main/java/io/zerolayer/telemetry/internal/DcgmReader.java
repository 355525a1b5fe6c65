package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.telemetry.prometheus.Sample;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads the DCGM exporter's page for the GPUs an instance runs on, chosen by the {@code gpu}
 * label (all GPUs when none is named): mean utilisation, summed framebuffer use.
 *
 * <p>Utilisation is {@code DCGM_FI_DEV_GPU_UTIL} (percent); exporters configured with only
 * profiling counters lack it, and then {@code DCGM_FI_PROF_GR_ENGINE_ACTIVE} (a fraction of time
 * the graphics engine is busy) stands in. Samples of MIG instances (with a {@code GPU_I_ID}
 * label) are skipped: they repeat a share of the whole GPU.
 */
public final class DcgmReader {

  private static final long MIB = 1L << 20;

  private DcgmReader() {
  }

  public static GpuReading read(final Scrape scrape, final Set<String> gpus) {
    requireNonNull(scrape, "scrape");
    requireNonNull(gpus, "gpus");
    final List<Sample> util = selected(scrape, "DCGM_FI_DEV_GPU_UTIL", gpus);
    final OptionalDouble utilization = util.isEmpty()
        ? mean(selected(scrape, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", gpus), 1.0)
        : mean(util, 100.0);
    final List<Sample> used = selected(scrape, "DCGM_FI_DEV_FB_USED", gpus);
    final OptionalLong usedBytes = used.isEmpty() ? OptionalLong.empty()
        : OptionalLong.of(Math.round(used.stream().mapToDouble(Sample::value).sum() * MIB));
    return new GpuReading(utilization, usedBytes);
  }

  private static List<Sample> selected(final Scrape scrape, final String name, final Set<String> gpus) {
    return scrape.series(name).stream()
        .filter(sample -> sample.label("GPU_I_ID").isEmpty())
        .filter(sample -> gpus.isEmpty() || sample.label("gpu").map(gpus::contains).orElse(false))
        .toList();
  }

  private static OptionalDouble mean(final List<Sample> samples, final double scale) {
    return samples.stream().mapToDouble(sample -> sample.value() / scale).average();
  }
}
