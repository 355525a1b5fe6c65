package io.zerolayer.telemetry.prometheus;

/** A position in one line of the page, with the few moves its grammar needs. */
final class LineCursor {

  private final String line;
  private final int lineNumber;
  private int pos;

  LineCursor(final String line, final int lineNumber) {
    this.line = line;
    this.lineNumber = lineNumber;
  }

  boolean atEnd() {
    return pos >= line.length();
  }

  boolean peek(final char c) {
    return pos < line.length() && line.charAt(pos) == c;
  }

  /** The next character, or a blank at the end of the line. */
  char next() {
    return pos < line.length() ? line.charAt(pos++) : ' ';
  }

  void expect(final char c) {
    if (!peek(c)) {
      throw fail("expected '" + c + "' at column " + column());
    }
    pos++;
  }

  /** Skips spaces and tabs; whether there were any. */
  boolean skipBlanks() {
    final int before = pos;
    while (pos < line.length() && (line.charAt(pos) == ' ' || line.charAt(pos) == '\t')) {
      pos++;
    }
    return pos > before;
  }

  /** Characters up to the next blank or the end. */
  String token() {
    final int start = pos;
    while (pos < line.length() && line.charAt(pos) != ' ' && line.charAt(pos) != '\t') {
      pos++;
    }
    return line.substring(start, pos);
  }

  /** A metric name ({@code [a-zA-Z_:][a-zA-Z0-9_:]*}) or a label name (no colons). */
  String name(final boolean metric) {
    final int start = pos;
    while (pos < line.length() && nameChar(line.charAt(pos), pos == start, metric)) {
      pos++;
    }
    if (pos == start) {
      throw fail("expected a " + (metric ? "metric" : "label") + " name at column " + (start + 1));
    }
    return line.substring(start, pos);
  }

  private static boolean nameChar(final char c, final boolean first, final boolean metric) {
    final boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (metric && c == ':');
    return letter || (!first && c >= '0' && c <= '9');
  }

  String rest() {
    return line.substring(Math.min(pos, line.length()));
  }

  int column() {
    return pos + 1;
  }

  /** Moves back to a column this cursor reported. */
  void rewindTo(final int column) {
    pos = column - 1;
  }

  PrometheusParseException fail(final String problem) {
    return PrometheusParseException.atLine(lineNumber, problem);
  }
}
