package io.zerolayer.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Whether a benchmark run wrote what it should: every file, not empty, and a table column for each policy. */
public final class SmokeCheck {

  private SmokeCheck() {
  }

  /** What is missing; empty when nothing is. */
  public static List<String> problems(final PolicyBenchmark.Results results, final List<String> policies) {
    final List<String> problems = new ArrayList<>();
    Stream.of(List.of(results.table()), results.csvs(), results.charts()).flatMap(List::stream).forEach(file -> {
      if (size(file) == 0) {
        problems.add(file + " is missing or empty");
      }
    });
    final String header = results.markdown().lines().filter(l -> l.startsWith("| figure |")).findFirst().orElse("");
    for (final String policy : policies) {
      if (!header.contains("| " + policy + " |")) {
        problems.add("the table has no column for " + policy);
      }
    }
    final long rows = results.markdown().lines().filter(l -> l.startsWith("| ") && !l.startsWith("| figure |"))
        .count();
    if (rows < FigureRow.values().length) {
      problems.add("the table has " + rows + " figure rows, not " + FigureRow.values().length);
    }
    return problems;
  }

  private static long size(final Path file) {
    try {
      return Files.isRegularFile(file) ? Files.size(file) : 0;
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
