package io.zerolayer.telemetry.prometheus;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Sample values and {@code le} / {@code quantile} bounds: decimal floats, {@code NaN} and
 * {@code ±Inf}. Java's own parser would also take hex floats, {@code Infinity} and a trailing
 * {@code d}, which the format does not allow.
 */
final class SampleValues {

  private static final Pattern DECIMAL = Pattern.compile("[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?");

  private SampleValues() {
  }

  /**
   * @throws NumberFormatException when the token is none of these
   */
  static double parse(final String token) {
    switch (token.toLowerCase(Locale.ROOT)) {
      case "nan":
        return Double.NaN;
      case "+inf":
      case "inf":
        return Double.POSITIVE_INFINITY;
      case "-inf":
        return Double.NEGATIVE_INFINITY;
      default:
        if (!DECIMAL.matcher(token).matches()) {
          throw new NumberFormatException("'" + token + "' is not a number");
        }
        return Double.parseDouble(token);
    }
  }
}
