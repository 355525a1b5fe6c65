package io.zerolayer.telemetry.prometheus;

/** The type a {@code # TYPE} line gives a metric family; {@link #UNTYPED} when none does. */
public enum MetricType {
  COUNTER, GAUGE, HISTOGRAM, SUMMARY, UNTYPED
}
