package io.zerolayer.telemetry.prometheus;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/** Reads one sample line: {@code name{label="value",...} value [timestamp]}. */
final class SampleLineReader {

  private static final Pattern DECIMAL = Pattern.compile("[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?");
  private static final Pattern TIMESTAMP = Pattern.compile("-?\\d{1,19}");

  private final String line;
  private final int lineNumber;
  private int pos;

  private SampleLineReader(final String line, final int lineNumber) {
    this.line = line;
    this.lineNumber = lineNumber;
  }

  static Sample read(final String line, final int lineNumber) {
    return new SampleLineReader(line, lineNumber).sample();
  }

  /** The value of a sample or of an {@code le} / {@code quantile} label. */
  static double parseValue(final String token) {
    switch (token.toLowerCase()) {
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

  private Sample sample() {
    skipBlanks();
    final String name = name(true);
    final Map<String, String> labels = peek('{') ? labels() : Map.of();
    final double value = value(requireBlankThenToken("a value"));
    final OptionalLong timestamp = timestamp();
    skipBlanks();
    if (pos < line.length()) {
      throw fail("unexpected '" + line.substring(pos) + "' after the value");
    }
    return new Sample(name, labels, value, timestamp);
  }

  private Map<String, String> labels() {
    pos++;
    final Map<String, String> labels = new LinkedHashMap<>();
    skipBlanks();
    while (!peek('}')) {
      final String label = name(false);
      skipBlanks();
      expect('=');
      skipBlanks();
      if (labels.put(label, quoted()) != null) {
        throw fail("label " + label + " appears twice");
      }
      skipBlanks();
      if (peek(',')) {
        pos++;
        skipBlanks();
      } else if (!peek('}')) {
        throw fail("expected ',' or '}' at column " + (pos + 1));
      }
    }
    pos++;
    return labels;
  }

  private String quoted() {
    expect('"');
    final StringBuilder value = new StringBuilder();
    while (pos < line.length()) {
      final char c = line.charAt(pos++);
      if (c == '"') {
        return value.toString();
      }
      if (c != '\\') {
        value.append(c);
        continue;
      }
      final char escaped = pos < line.length() ? line.charAt(pos++) : ' ';
      switch (escaped) {
        case '\\' -> value.append('\\');
        case '"' -> value.append('"');
        case 'n' -> value.append('\n');
        default -> throw fail("invalid escape '\\" + escaped + "' in a label value");
      }
    }
    throw fail("unterminated label value");
  }

  private String name(final boolean metric) {
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

  private double value(final String token) {
    try {
      return parseValue(token);
    } catch (final NumberFormatException e) {
      throw fail(e.getMessage());
    }
  }

  private OptionalLong timestamp() {
    final int before = pos;
    skipBlanks();
    if (pos == line.length() || pos == before) {
      return OptionalLong.empty();
    }
    final String token = token();
    if (!TIMESTAMP.matcher(token).matches()) {
      throw fail("'" + token + "' is not a timestamp in ms");
    }
    try {
      return OptionalLong.of(Long.parseLong(token));
    } catch (final NumberFormatException e) {
      throw fail("timestamp " + token + " is out of range");
    }
  }

  private String requireBlankThenToken(final String what) {
    final int before = pos;
    skipBlanks();
    if (pos == before || pos == line.length()) {
      throw fail("expected a blank and " + what + " at column " + (pos + 1));
    }
    return token();
  }

  private String token() {
    final int start = pos;
    while (pos < line.length() && !blank(line.charAt(pos))) {
      pos++;
    }
    return line.substring(start, pos);
  }

  private void skipBlanks() {
    while (pos < line.length() && blank(line.charAt(pos))) {
      pos++;
    }
  }

  private static boolean blank(final char c) {
    return c == ' ' || c == '\t';
  }

  private boolean peek(final char c) {
    return pos < line.length() && line.charAt(pos) == c;
  }

  private void expect(final char c) {
    if (!peek(c)) {
      throw fail("expected '" + c + "' at column " + (pos + 1));
    }
    pos++;
  }

  private PrometheusParseException fail(final String problem) {
    return PrometheusParseException.atLine(lineNumber, problem);
  }
}
