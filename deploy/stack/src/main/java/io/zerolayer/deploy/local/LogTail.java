package io.zerolayer.deploy.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** The last lines of a child's log file, for error messages, and whether it says something. */
final class LogTail {

  private LogTail() {
  }

  static List<String> lastLines(final Path file, final int count) {
    final Deque<String> tail = new ArrayDeque<>(count);
    try (BufferedReader reader = open(file)) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (tail.size() == count) {
          tail.removeFirst();
        }
        tail.addLast(line);
      }
    } catch (final IOException e) {
      return List.of("(cannot read " + file + ": " + e.getMessage() + ")");
    }
    return List.copyOf(tail);
  }

  /** Whether a line of the log contains {@code text}; false for a log that cannot be read. */
  static boolean contains(final Path file, final String text) {
    try (BufferedReader reader = open(file)) {
      return reader.lines().anyMatch(line -> line.contains(text));
    } catch (final IOException | UncheckedIOException e) {
      return false;
    }
  }

  /** InputStreamReader replaces bytes that are not UTF-8 instead of failing on them. */
  private static BufferedReader open(final Path file) throws IOException {
    return new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8));
  }

  /** The last lines, indented, under a heading; or a note that the log is empty. */
  static String describe(final Path file, final int count) {
    final List<String> lines = lastLines(file, count);
    if (lines.isEmpty()) {
      return "  (the log is empty)";
    }
    final StringBuilder text = new StringBuilder("  Last " + lines.size() + " lines of the log:");
    lines.forEach(line -> text.append(System.lineSeparator()).append("  | ").append(line));
    return text.toString();
  }
}
