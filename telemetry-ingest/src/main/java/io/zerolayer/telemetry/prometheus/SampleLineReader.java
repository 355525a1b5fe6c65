package io.zerolayer.telemetry.prometheus;

import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/** Reads one sample line: {@code name{label="value",...} value [timestamp]}. */
final class SampleLineReader {

  private static final Pattern TIMESTAMP = Pattern.compile("-?\\d{1,19}");

  private SampleLineReader() {
  }

  static Sample read(final String line, final int lineNumber) {
    final LineCursor cursor = new LineCursor(line, lineNumber);
    cursor.skipBlanks();
    final String name = cursor.name(true);
    final Map<String, String> labels = LabelSetReader.readIfAny(cursor);
    if (!cursor.skipBlanks() || cursor.atEnd()) {
      throw cursor.fail("expected a blank and a value at column " + cursor.column());
    }
    final double value = value(cursor);
    final OptionalLong timestamp = timestamp(cursor);
    cursor.skipBlanks();
    if (!cursor.atEnd()) {
      throw cursor.fail("unexpected '" + cursor.rest() + "' after the value");
    }
    return new Sample(name, labels, value, timestamp);
  }

  private static double value(final LineCursor cursor) {
    try {
      return SampleValues.parse(cursor.token());
    } catch (final NumberFormatException e) {
      throw cursor.fail(e.getMessage());
    }
  }

  private static OptionalLong timestamp(final LineCursor cursor) {
    if (!cursor.skipBlanks() || cursor.atEnd()) {
      return OptionalLong.empty();
    }
    final String token = cursor.token();
    if (!TIMESTAMP.matcher(token).matches()) {
      throw cursor.fail("'" + token + "' is not a timestamp in ms");
    }
    try {
      return OptionalLong.of(Long.parseLong(token));
    } catch (final NumberFormatException e) {
      throw cursor.fail("timestamp " + token + " is out of range");
    }
  }
}
