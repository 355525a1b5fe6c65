package io.zerolayer.fleet.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zerolayer.fleet.load.TraceReplay.Arrival;
import io.zerolayer.fleet.load.TraceReplay.Settings;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a trace in the Mooncake format, one JSON object per line:
 * {@code {"timestamp": ms, "input_length": tokens, "output_length": tokens, "hash_ids": [block, ...]}},
 * where each hash id names a block of {@link #TRACE_BLOCK_TOKENS} prompt tokens and requests
 * sharing leading ids share that prompt prefix. Prompts are scaled down for one machine: each
 * block is written as {@link TraceReplay#BLOCK_TOKENS} tokens, so a prompt keeps its number of
 * blocks and its shared prefixes at 1/32 of its length; the last block is as much shorter as the
 * recorded prompt is. Clamping the prompt drops its trailing blocks.
 */
final class MooncakeTraceFile {

  /** Prompt tokens per hash id in the Mooncake traces. */
  static final int TRACE_BLOCK_TOKENS = 512;

  private static final ObjectMapper JSON = new ObjectMapper();

  private MooncakeTraceFile() {
  }

  static List<Arrival> rows(final Path file, final BufferedReader reader, final Settings settings)
      throws IOException {
    final List<Arrival> arrivals = new ArrayList<>();
    Long first = null;
    int lineNumber = 0;
    for (String line = reader.readLine(); line != null && arrivals.size() < settings.rowsToRead();
        line = reader.readLine()) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      try {
        final JsonNode row = JSON.readTree(line);
        final long timestamp = field(row, "timestamp").asLong();
        first = first == null ? timestamp : first;
        final List<Long> blocks = new ArrayList<>();
        field(row, "hash_ids").forEach(id -> blocks.add(id.asLong()));
        arrivals.add(arrival(timestamp - first, field(row, "input_length").asInt(),
            field(row, "output_length").asInt(), blocks, settings));
      } catch (final IOException | IllegalArgumentException e) {
        throw new IOException(file + " line " + lineNumber + " is not a Mooncake trace row (" + e.getMessage()
            + "): " + line, e);
      }
    }
    return arrivals;
  }

  private static Arrival arrival(final long recordedMs, final int inputLength, final int outputLength,
      final List<Long> blocks, final Settings settings) {
    if (inputLength < 1 || outputLength < 1) {
      throw new IllegalArgumentException("input_length and output_length must be at least 1");
    }
    final int scale = TRACE_BLOCK_TOKENS / TraceReplay.BLOCK_TOKENS;
    final int promptTokens = settings.promptTokens().clamp((inputLength + scale - 1) / scale);
    final int keptBlocks = Math.min(blocks.size(), (promptTokens + TraceReplay.BLOCK_TOKENS - 1)
        / TraceReplay.BLOCK_TOKENS);
    return new Arrival(Duration.ofNanos(Math.round(recordedMs * 1_000_000L / settings.speedup())), promptTokens,
        settings.outputTokens().clamp(outputLength), List.copyOf(blocks.subList(0, keptBlocks)));
  }

  private static JsonNode field(final JsonNode row, final String name) {
    final JsonNode value = row.get(name);
    if (value == null || value.isNull()) {
      throw new IllegalArgumentException("no " + name);
    }
    return value;
  }
}
