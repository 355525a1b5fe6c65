package io.zerolayer.telemetry;

import io.zerolayer.contract.avro.InstanceTelemetry;
import java.util.Set;

/**
 * Which {@link InstanceTelemetry} fields a scraped instance can report, and the neutral value a
 * field gets when it cannot. The README's "Telemetry from real servers" has the full mapping.
 *
 * <p>No Prometheus endpoint of vLLM, SGLang, the DCGM exporter or node_exporter exposes these,
 * so a scraped sample always carries their neutral value, chosen so that no heatmap rule fires
 * on it:
 * <ul>
 *   <li>{@code vramFragmentation}: 0.0 (factor 1.0). vLLM's paged KV cache has no external
 *       fragmentation to report, and DCGM only knows used and free framebuffer.</li>
 *   <li>{@code kvWarmupLevel}: 1.0 (warm, no pre-warm). No server reports a warm-up level.</li>
 *   <li>{@code ncclRingLatencyMs}: 0.0. NCCL exposes no metrics endpoint.</li>
 *   <li>{@code allocationErrors}: 0. No server counts CUDA/KV allocation failures; vLLM's
 *       {@code num_preemptions_total} is the nearest signal but counts scheduler preemptions, not
 *       errors, so it is not mapped.</li>
 *   <li>{@code batchSlots}: 0 (not said). vLLM does not export its {@code --max-num-seqs}, and
 *       its KV cache may hold fewer; the heatmap learns the batch from a queue beside a full one.</li>
 * </ul>
 *
 * <p>No server exports how many tokens each running request may still generate either: {@code
 * runningTokensToLimit} comes from the page of the Zerolayer worker in front of the server, when
 * the target names it, and is empty otherwise (the routers then estimate when batch slots free
 * from their own dispatches).
 *
 * <p>The other fields are observable, but a given endpoint may lack the metric (an old vLLM
 * without the time-per-output-token histogram, no DCGM exporter configured, a scrape window with
 * no tokens). Such a field also gets its neutral value, and the mapper says which fields it
 * filled that way.
 */
public final class TelemetryFields {

  /** Fields no scraped endpoint can give. */
  public static final Set<String> NOT_SCRAPABLE =
      Set.of("vramFragmentation", "kvWarmupLevel", "ncclRingLatencyMs", "allocationErrors", "batchSlots");

  /** The field only the page of the worker in front of the server gives. */
  public static final String FROM_WORKER = "runningTokensToLimit";

  /** The model name when neither the target nor the server names one. */
  public static final String UNKNOWN_MODEL = "unknown";

  private TelemetryFields() {
  }

  /** A sample of the instance with every metric at its neutral value. */
  public static InstanceTelemetry.Builder neutral(final String instanceId, final String zone, final String model,
      final long sampleTimeMs) {
    return InstanceTelemetry.newBuilder()
        .setInstanceId(instanceId).setZone(zone).setModel(model).setSampleTimeMs(sampleTimeMs)
        .setGpuUtilization(0.0)
        .setVramUsedBytes(0L)
        .setVramFragmentation(0.0)
        .setKvCacheHitRate(0.0)
        .setKvWarmupLevel(1.0)
        .setNcclRingLatencyMs(0.0)
        .setTcpRetransmitRate(0.0)
        .setQueueLength(0)
        .setRunningRequests(0)
        .setDecodeTokensPerS(0.0)
        .setTokenIntervalStddevMs(0.0)
        .setAllocationErrors(0);
  }
}
