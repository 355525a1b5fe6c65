package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What one scrape of the DCGM exporter says about an instance's GPUs, aggregated over them.
 *
 * @param utilization mean busy fraction of the GPUs
 * @param vramUsedBytes framebuffer in use on all of them together
 */
public record GpuReading(OptionalDouble utilization, OptionalLong vramUsedBytes) {

  public GpuReading {
    requireNonNull(utilization, "utilization");
    requireNonNull(vramUsedBytes, "vramUsedBytes");
  }

  /** No DCGM exporter to read. */
  public static GpuReading none() {
    return new GpuReading(OptionalDouble.empty(), OptionalLong.empty());
  }
}
