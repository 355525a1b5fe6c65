package io.zerolayer.worker.openai;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads the data of Server-Sent Events (the {@code text/event-stream} format) one event at a
 * time: {@code data:} lines up to a blank line form one event; comments, {@code event:},
 * {@code id:} and {@code retry:} lines are skipped.
 */
final class ServerSentEvents {

  private final BufferedReader reader;
  private final Runnable firstLine;
  private boolean seenAny;

  /**
   * @param firstLine runs once, when the first line of the stream has arrived
   */
  ServerSentEvents(final InputStream stream, final Runnable firstLine) {
    this.reader = new BufferedReader(new InputStreamReader(requireNonNull(stream, "stream"), StandardCharsets.UTF_8));
    this.firstLine = requireNonNull(firstLine, "firstLine");
  }

  /** The next event's data (its data lines joined by newlines), or null at the end of the stream. */
  String next() throws IOException {
    final StringBuilder data = new StringBuilder();
    boolean inEvent = false;
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      if (!seenAny) {
        seenAny = true;
        firstLine.run();
      }
      if (line.isEmpty()) {
        if (inEvent) {
          return data.toString();
        }
        continue;
      }
      final int colon = line.indexOf(':');
      if (colon == 0 || !"data".equals(colon < 0 ? line : line.substring(0, colon))) {
        continue;
      }
      final String value = colon < 0 ? "" : line.substring(colon + 1);
      if (inEvent) {
        data.append('\n');
      }
      data.append(value.startsWith(" ") ? value.substring(1) : value);
      inEvent = true;
    }
    return inEvent ? data.toString() : null;
  }
}
