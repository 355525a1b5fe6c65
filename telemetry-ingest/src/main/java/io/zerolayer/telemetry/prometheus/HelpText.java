package io.zerolayer.telemetry.prometheus;

/** Resolves the two escapes a HELP docstring may hold: {@code \\} and {@code \n}. */
final class HelpText {

  private HelpText() {
  }

  static String unescape(final String escaped, final int lineNumber) {
    final StringBuilder text = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      final char c = escaped.charAt(i);
      if (c != '\\') {
        text.append(c);
        continue;
      }
      final char next = i + 1 < escaped.length() ? escaped.charAt(++i) : ' ';
      if (next == '\\') {
        text.append('\\');
      } else if (next == 'n') {
        text.append('\n');
      } else {
        throw PrometheusParseException.atLine(lineNumber, "invalid escape '\\" + next + "' in HELP text");
      }
    }
    return text.toString();
  }
}
