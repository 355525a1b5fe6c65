package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * One figure of a policy's run as the results table shows it: a value and its text, or "n/a"
 * and why it could not be measured. A measurement that ran but never reached its end (traffic
 * that never left a failed instance) has an infinite value, so every goal on it fails.
 *
 * @param value the number goals are checked against; empty when the figure is n/a
 * @param text what the table shows
 */
record Figure(OptionalDouble value, String text) {

  Figure {
    requireNonNull(value, "value");
    requireNonNull(text, "text");
  }

  static Figure of(final double value, final String text) {
    return new Figure(OptionalDouble.of(value), text);
  }

  /** Milliseconds, shown whole. */
  static Figure ms(final double ms) {
    return of(ms, format("%,.0f", ms));
  }

  /** A fraction, shown as a percentage with {@code decimals} places. */
  static Figure percent(final double fraction, final int decimals) {
    return of(fraction, format("%." + decimals + "f %%", 100 * fraction));
  }

  /** Not measured, and why. */
  static Figure na(final String reason) {
    return new Figure(OptionalDouble.empty(), "n/a: " + reason);
  }

  /** Measured, but the thing measured never happened (traffic never left, a request never finished). */
  static Figure never(final String text) {
    return of(Double.POSITIVE_INFINITY, text);
  }

  boolean measured() {
    return value.isPresent();
  }

  static String format(final String format, final Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
