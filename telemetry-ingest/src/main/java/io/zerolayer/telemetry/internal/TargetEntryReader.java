package io.zerolayer.telemetry.internal;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.zerolayer.contract.telemetry.RunningRequestsPage;
import io.zerolayer.telemetry.ScrapeTarget;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one entry of a scrape targets file (the format is {@link io.zerolayer.telemetry.ScrapeTargetsFile}'s).
 * A bad entry throws {@link IllegalArgumentException} saying what is wrong and how to fix it.
 */
public final class TargetEntryReader {

  static final String INSTANCE_ID = "instanceId";
  static final String ZONE = "zone";
  static final String MODEL = "model";
  static final String ENGINE_URL = "engineMetricsUrl";
  static final String GPU_URL = "gpuMetricsUrl";
  static final String GPU_INDICES = "gpuIndices";
  static final String HOST_URL = "hostMetricsUrl";
  static final String WORKER_URL = "workerRunningUrl";

  private static final List<String> MEMBERS = List.of(INSTANCE_ID, ZONE, MODEL, ENGINE_URL, GPU_URL, GPU_INDICES,
      HOST_URL, WORKER_URL);

  private TargetEntryReader() {
  }

  /** The target an entry describes. */
  public static ScrapeTarget read(final JsonNode entry) {
    requireNonNull(entry, "entry");
    if (!entry.isObject()) {
      throw new IllegalArgumentException("it is " + entry + ", not an object; write each target as {\""
          + INSTANCE_ID + "\": ..., \"" + ZONE + "\": ..., \"" + ENGINE_URL + "\": ...}");
    }
    for (final Iterator<String> names = entry.fieldNames(); names.hasNext(); ) {
      final String name = names.next();
      if (!MEMBERS.contains(name)) {
        throw new IllegalArgumentException("\"" + name + "\" is not a target member; the members are "
            + String.join(", ", MEMBERS));
      }
    }
    ScrapeTarget target = ScrapeTarget.of(text(entry, INSTANCE_ID, "gpu-0").orElseThrow(),
        text(entry, ZONE, "zone-a").orElseThrow(), requiredUrl(entry, ENGINE_URL, 8000));
    final Optional<String> model = optionalText(entry, MODEL);
    if (model.isPresent()) {
      target = target.withModel(model.get());
    }
    final Optional<URI> gpuUrl = url(entry, GPU_URL, metricsUrl(9400));
    if (gpuUrl.isPresent()) {
      target = target.withGpuMetrics(gpuUrl.get(), gpuIndices(entry.get(GPU_INDICES)).toArray(String[]::new));
    } else if (entry.has(GPU_INDICES)) {
      throw new IllegalArgumentException(GPU_INDICES + " needs " + GPU_URL
          + ", the DCGM exporter they are read from; add it or remove " + GPU_INDICES);
    }
    final Optional<URI> hostUrl = url(entry, HOST_URL, metricsUrl(9100));
    if (hostUrl.isPresent()) {
      target = target.withHostMetrics(hostUrl.get());
    }
    final Optional<URI> workerUrl = url(entry, WORKER_URL, "\"http://10.0.0.5:8086" + RunningRequestsPage.PATH + "\"");
    return workerUrl.isPresent() ? target.withWorkerRunning(workerUrl.get()) : target;
  }

  /** The entry's text member; throws, with an example value, when a required one is missing. */
  private static Optional<String> text(final JsonNode entry, final String member, final String example) {
    if (!entry.has(member)) {
      throw new IllegalArgumentException(member + " is missing; add it, e.g. \"" + member + "\": \"" + example + "\"");
    }
    return optionalText(entry, member);
  }

  private static Optional<String> optionalText(final JsonNode entry, final String member) {
    final JsonNode node = entry.get(member);
    if (node == null) {
      return Optional.empty();
    }
    if (!node.isTextual() || node.textValue().isBlank()) {
      throw new IllegalArgumentException(member + " must be a non-empty string, not " + node);
    }
    return Optional.of(node.textValue().strip());
  }

  private static URI requiredUrl(final JsonNode entry, final String member, final int port) {
    if (!entry.has(member)) {
      throw new IllegalArgumentException(member + " is missing; add the inference server's /metrics URL, e.g. \""
          + member + "\": " + metricsUrl(port));
    }
    return url(entry, member, metricsUrl(port)).orElseThrow();
  }

  /** The entry's URL member, checked to be an absolute http(s) URL; {@code example} shows one, quoted. */
  private static Optional<URI> url(final JsonNode entry, final String member, final String example) {
    final Optional<String> text = optionalText(entry, member);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      final URI uri = new URI(text.get());
      final String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return Optional.of(uri);
      }
    } catch (final URISyntaxException e) {
      // Reported below, with the fix.
    }
    throw new IllegalArgumentException(member + " \"" + text.get() + "\" is not an absolute http or https URL;"
        + " write it like " + example);
  }

  /** An exporter's {@code /metrics} URL on its usual port, quoted. */
  private static String metricsUrl(final int port) {
    return "\"http://10.0.0.5:" + port + "/metrics\"";
  }

  private static Set<String> gpuIndices(final JsonNode node) {
    if (node == null) {
      return Set.of();
    }
    final String fix = GPU_INDICES + " must be an array of DCGM gpu indices, e.g. [\"0\", \"1\"] (or leave it out"
        + " for every GPU on the page), not " + node;
    if (!node.isArray()) {
      throw new IllegalArgumentException(fix);
    }
    final List<String> indices = new ArrayList<>();
    for (final JsonNode index : node) {
      final String text = index.isIntegralNumber() || index.isTextual() ? index.asText().strip() : "";
      if (!text.matches("\\d+")) {
        throw new IllegalArgumentException(fix);
      }
      indices.add(text);
    }
    return Set.copyOf(indices);
  }
}
