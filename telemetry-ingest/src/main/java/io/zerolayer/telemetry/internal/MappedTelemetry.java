package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceTelemetry;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * A sample built from scrapes, and the fields it could not observe and so carry their neutral
 * value (see {@link io.zerolayer.telemetry.TelemetryFields}), in name order.
 */
public record MappedTelemetry(InstanceTelemetry telemetry, Set<String> neutralFields) {

  public MappedTelemetry {
    requireNonNull(telemetry, "telemetry");
    neutralFields = Collections.unmodifiableSortedSet(new TreeSet<>(requireNonNull(neutralFields, "neutralFields")));
  }
}
