package io.zerolayer.telemetry;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zerolayer.runtime.EnvironmentConfig;
import io.zerolayer.telemetry.internal.TargetEntryReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The instances telemetry-ingest scrapes, read from the JSON file named by
 * {@code telemetry.targets.file}: an array with one object per instance.
 *
 * <pre>{@code
 * [
 *   {"instanceId": "gpu-0", "zone": "zone-a", "model": "llama-3.1-8b",
 *    "engineMetricsUrl": "http://10.0.0.5:8000/metrics",
 *    "gpuMetricsUrl": "http://10.0.0.5:9400/metrics", "gpuIndices": ["0", "1"],
 *    "hostMetricsUrl": "http://10.0.0.5:9100/metrics",
 *    "workerRunningUrl": "http://10.0.0.5:8086/running"},
 *   {"instanceId": "gpu-1", "zone": "zone-b", "engineMetricsUrl": "http://10.0.1.7:8000/metrics"}
 * ]
 * }</pre>
 *
 * <ul>
 *   <li>{@code instanceId} (required): the key of the instance's telemetry; unique in the file.
 *   <li>{@code zone} (required): the instance's zone.
 *   <li>{@code model} (optional): the model to report; when absent, the server's
 *       {@code model_name} label.
 *   <li>{@code engineMetricsUrl} (required): the inference server's {@code /metrics} (vLLM or
 *       SGLang).
 *   <li>{@code gpuMetricsUrl} (optional): the host's DCGM exporter.
 *   <li>{@code gpuIndices} (optional, only with {@code gpuMetricsUrl}): the DCGM {@code gpu}
 *       indices the instance runs on, as strings or whole numbers; absent or empty means every
 *       GPU on the page.
 *   <li>{@code hostMetricsUrl} (optional): the host's node_exporter, for TCP retransmits.
 *   <li>{@code workerRunningUrl} (optional): the page of the Zerolayer worker in front of the
 *       server ({@code /running} on its HTTP port), for what each running request may still
 *       generate; without it a router estimates when a full batch frees a slot from its own
 *       dispatches.
 * </ul>
 *
 * <p>URLs are absolute {@code http} or {@code https} URLs. Any other member is refused, so that a
 * misspelt optional member is not silently ignored. A file that cannot be read, is not such an
 * array, lists no target or has a bad entry throws {@link IllegalArgumentException} naming the
 * file, the entry and the fix.
 */
public final class ScrapeTargetsFile {

  private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private ScrapeTargetsFile() {
  }

  /** The targets the file lists, in its order. */
  public static List<ScrapeTarget> read(final Path file) {
    requireNonNull(file, "file");
    final JsonNode root = parse(file);
    if (!root.isArray()) {
      final String found = root.isMissingNode() ? "it is empty" : "its top level is a JSON "
          + root.getNodeType().name().toLowerCase(Locale.ROOT);
      throw bad(file, found + ", not an array; write [{\"instanceId\": ..., \"zone\": ..., \"engineMetricsUrl\": ...},"
          + " ...]");
    }
    if (root.isEmpty()) {
      throw bad(file, "it lists no target; add one, or leave " + TelemetryIngestConfig.TARGETS_FILE
          + " empty to take telemetry by push only");
    }
    final List<ScrapeTarget> targets = new ArrayList<>();
    final Map<String, Integer> entryOfInstance = new HashMap<>();
    for (int i = 0; i < root.size(); i++) {
      final ScrapeTarget target = entry(file, root.get(i), i + 1);
      final Integer earlier = entryOfInstance.putIfAbsent(target.instanceId(), i + 1);
      if (earlier != null) {
        throw bad(file, "entry " + (i + 1) + ": instanceId \"" + target.instanceId() + "\" is also entry "
            + earlier + "'s; give each instance its own id");
      }
      targets.add(target);
    }
    return List.copyOf(targets);
  }

  private static JsonNode parse(final Path file) {
    final String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (final IOException e) {
      throw bad(file, "it cannot be read (" + e + "); point " + TelemetryIngestConfig.TARGETS_FILE + " ("
          + EnvironmentConfig.variable(TelemetryIngestConfig.TARGETS_FILE) + ") at an existing file, or leave it"
          + " empty to take telemetry by push only");
    }
    try {
      return JSON.readTree(text);
    } catch (final JsonProcessingException e) {
      final String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
      throw bad(file, "it is not JSON (" + e.getOriginalMessage() + where + "); write a JSON array of targets");
    }
  }

  private static ScrapeTarget entry(final Path file, final JsonNode entry, final int number) {
    try {
      return TargetEntryReader.read(entry);
    } catch (final IllegalArgumentException e) {
      final JsonNode id = entry.get("instanceId");
      final String which = id != null && id.isTextual() ? " (instanceId \"" + id.textValue() + "\")" : "";
      throw bad(file, "entry " + number + which + ": " + e.getMessage());
    }
  }

  private static IllegalArgumentException bad(final Path file, final String problem) {
    return new IllegalArgumentException("Scrape targets file " + file.toAbsolutePath() + ": " + problem
        + " (the format is in the README's \"Telemetry from real servers\")");
  }
}
