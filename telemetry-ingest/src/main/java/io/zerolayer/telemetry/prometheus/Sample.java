package io.zerolayer.telemetry.prometheus;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One sample line: the sample's own name (with any {@code _bucket}, {@code _sum}, {@code _count}
 * suffix), its labels with escapes resolved, its value and its optional timestamp.
 */
public record Sample(String name, Map<String, String> labels, double value, OptionalLong timestampMs) {

  public Sample {
    requireNonNull(name, "name");
    labels = Map.copyOf(requireNonNull(labels, "labels"));
    requireNonNull(timestampMs, "timestampMs");
  }

  /** The value of one label, empty when the sample does not carry it. */
  public Optional<String> label(final String labelName) {
    return Optional.ofNullable(labels.get(labelName));
  }
}
