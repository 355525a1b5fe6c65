package io.zerolayer.telemetry.prometheus;

/** The text is not valid Prometheus text exposition format; the message names the line. */
public final class PrometheusParseException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PrometheusParseException(final String message) {
    super(message);
  }

  static PrometheusParseException atLine(final int lineNumber, final String problem) {
    return new PrometheusParseException("line " + lineNumber + ": " + problem);
  }
}
