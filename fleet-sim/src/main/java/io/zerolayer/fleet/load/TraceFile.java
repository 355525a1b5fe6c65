package io.zerolayer.fleet.load;

import io.zerolayer.fleet.load.TraceReplay.Arrival;
import io.zerolayer.fleet.load.TraceReplay.Settings;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a request trace into arrivals, telling the format by the file's content: a first line that
 * is a JSON object is the Mooncake format ({@link MooncakeTraceFile}), a
 * {@code TIMESTAMP,ContextTokens,GeneratedTokens} header the Azure LLM inference trace's.
 */
final class TraceFile {

  private static final String HEADER = "TIMESTAMP,ContextTokens,GeneratedTokens";
  /** The longest first line the format check reads back: a Mooncake row of some 100,000 block ids. */
  private static final int MAX_FIRST_LINE_CHARS = 1 << 20;
  private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
      .appendPattern("yyyy-MM-dd HH:mm:ss")
      .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
      .toFormatter();

  private TraceFile() {
  }

  static List<Arrival> read(final Path file, final Settings settings) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toAbsolutePath().normalize().toString(), null,
          "no request trace there (the traces are in shared/traces beside the repository)");
    }
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      reader.mark(MAX_FIRST_LINE_CHARS);
      final String header = reader.readLine();
      if (header != null && header.strip().startsWith("{")) {
        reader.reset();
        return window(file, MooncakeTraceFile.rows(file, reader, settings), settings);
      }
      if (header == null || !header.strip().equals(HEADER)) {
        throw new IOException(file + ": expected the Azure trace's header " + HEADER
            + " or a Mooncake trace's JSON lines, found " + header);
      }
      return window(file, rows(file, reader, settings), settings);
    }
  }

  /** The rows replayed, their arrival times counted from the first of them. */
  private static List<Arrival> window(final Path file, final List<Arrival> rows, final Settings settings)
      throws IOException {
    if (settings.firstRequest() >= rows.size()) {
      throw new IOException(file + " holds " + rows.size() + " requests; cannot pass over the first "
          + settings.firstRequest() + ": start the replay at a smaller request number");
    }
    final Duration start = rows.get(settings.firstRequest()).at();
    return rows.subList(settings.firstRequest(), rows.size()).stream()
        .map(row -> new Arrival(row.at().minus(start), row.promptTokens(), row.outputTokens(), row.prefixBlocks()))
        .toList();
  }

  private static List<Arrival> rows(final Path file, final BufferedReader reader, final Settings settings)
      throws IOException {
    final List<Arrival> arrivals = new ArrayList<>();
    LocalDateTime first = null;
    int lineNumber = 1;
    for (String line = reader.readLine(); line != null && arrivals.size() < settings.rowsToRead();
        line = reader.readLine()) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      final String[] fields = line.strip().split(",");
      try {
        if (fields.length != 3) {
          throw new IllegalArgumentException("expected 3 fields");
        }
        final LocalDateTime time = LocalDateTime.parse(fields[0], TIMESTAMP);
        first = first == null ? time : first;
        final long recordedNanos = Duration.between(first, time).toNanos();
        arrivals.add(new Arrival(Duration.ofNanos(Math.round(recordedNanos / settings.speedup())),
            settings.promptTokens().clamp(Integer.parseInt(fields[1])),
            settings.outputTokens().clamp(Integer.parseInt(fields[2]))));
      } catch (final DateTimeParseException | IllegalArgumentException e) {
        throw new IOException(file + " line " + lineNumber + " is not a trace row (" + e.getMessage() + "): " + line,
            e);
      }
    }
    return arrivals;
  }
}
