package io.zerolayer.telemetry;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Optional;
import java.util.Set;

/**
 * One inference instance to scrape: its inference server's {@code /metrics} (vLLM or SGLang),
 * and optionally the DCGM exporter and node_exporter of its host, and the page of the Zerolayer
 * worker in front of the server that says what each running request may still generate
 * ({@link io.zerolayer.contract.telemetry.RunningRequestsPage}).
 *
 * @param model the model to report; when empty, the server's {@code model_name} label
 * @param gpus the DCGM {@code gpu} indices the instance runs on; empty means every GPU on the
 *     host. Utilisation is averaged over them and memory summed.
 */
public record ScrapeTarget(String instanceId, String zone, Optional<String> model, URI engineMetrics,
    Optional<URI> gpuMetrics, Set<String> gpus, Optional<URI> hostMetrics, Optional<URI> workerRunning) {

  public ScrapeTarget {
    requireNonNull(instanceId, "instanceId");
    requireNonNull(zone, "zone");
    requireNonNull(model, "model");
    requireNonNull(engineMetrics, "engineMetrics");
    requireNonNull(gpuMetrics, "gpuMetrics");
    gpus = Set.copyOf(requireNonNull(gpus, "gpus"));
    requireNonNull(hostMetrics, "hostMetrics");
    requireNonNull(workerRunning, "workerRunning");
  }

  /** A target with only its inference server. */
  public static ScrapeTarget of(final String instanceId, final String zone, final URI engineMetrics) {
    return new ScrapeTarget(instanceId, zone, Optional.empty(), engineMetrics, Optional.empty(), Set.of(),
        Optional.empty(), Optional.empty());
  }

  public ScrapeTarget withModel(final String name) {
    return new ScrapeTarget(instanceId, zone, Optional.of(name), engineMetrics, gpuMetrics, gpus, hostMetrics,
        workerRunning);
  }

  /** Adds the host's DCGM exporter, reading the given GPUs (all when none is given). */
  public ScrapeTarget withGpuMetrics(final URI uri, final String... gpuIndices) {
    return new ScrapeTarget(instanceId, zone, model, engineMetrics, Optional.of(uri), Set.of(gpuIndices),
        hostMetrics, workerRunning);
  }

  /** Adds the host's node_exporter, for TCP retransmits. */
  public ScrapeTarget withHostMetrics(final URI uri) {
    return new ScrapeTarget(instanceId, zone, model, engineMetrics, gpuMetrics, gpus, Optional.of(uri),
        workerRunning);
  }

  /** Adds the page of the worker in front of the server, for what each running request may still generate. */
  public ScrapeTarget withWorkerRunning(final URI uri) {
    return new ScrapeTarget(instanceId, zone, model, engineMetrics, gpuMetrics, gpus, hostMetrics, Optional.of(uri));
  }
}
