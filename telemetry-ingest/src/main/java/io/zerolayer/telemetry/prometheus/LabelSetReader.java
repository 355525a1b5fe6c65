package io.zerolayer.telemetry.prometheus;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reads a sample's optional {@code {name="value",...}} block; a trailing comma is allowed. */
final class LabelSetReader {

  private LabelSetReader() {
  }

  static Map<String, String> readIfAny(final LineCursor cursor) {
    final int afterName = cursor.column();
    cursor.skipBlanks();
    if (!cursor.peek('{')) {
      cursor.rewindTo(afterName);
      return Map.of();
    }
    cursor.expect('{');
    final Map<String, String> labels = new LinkedHashMap<>();
    cursor.skipBlanks();
    while (!cursor.peek('}')) {
      final String label = cursor.name(false);
      cursor.skipBlanks();
      cursor.expect('=');
      cursor.skipBlanks();
      if (labels.put(label, quoted(cursor)) != null) {
        throw cursor.fail("label " + label + " appears twice");
      }
      cursor.skipBlanks();
      if (cursor.peek(',')) {
        cursor.expect(',');
        cursor.skipBlanks();
      } else if (!cursor.peek('}')) {
        throw cursor.fail("expected ',' or '}' at column " + cursor.column());
      }
    }
    cursor.expect('}');
    return labels;
  }

  private static String quoted(final LineCursor cursor) {
    cursor.expect('"');
    final StringBuilder value = new StringBuilder();
    while (!cursor.atEnd()) {
      final char c = cursor.next();
      if (c == '"') {
        return value.toString();
      }
      if (c != '\\') {
        value.append(c);
        continue;
      }
      final char escaped = cursor.next();
      switch (escaped) {
        case '\\' -> value.append('\\');
        case '"' -> value.append('"');
        case 'n' -> value.append('\n');
        default -> throw cursor.fail("invalid escape '\\" + escaped + "' in a label value");
      }
    }
    throw cursor.fail("unterminated label value");
  }
}
