package io.zerolayer.router.policy;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Like the endpoint picker (EPP) of the Kubernetes Gateway API Inference Extension, with its
 * default thresholds and scorer weights:
 * <ol>
 *   <li>Fresh metrics only: a row whose telemetry is more than 2 s older than the newest row's is
 *       left out (EPP's {@code metricsStalenessThreshold}; the policy has no clock of its own).</li>
 *   <li>Saturation detector and filter: an endpoint has capacity while its waiting queue is at
 *       most 5 and its KV-cache usage at most 0.8 ({@code QueueDepthThreshold},
 *       {@code KVCacheUtilThreshold}). Only those are ranked (the sheddable-capacity filter); when
 *       none has capacity the pool is saturated and the ranking is empty, so the router
 *       throttles. Requests carry no criticality, so every one is shed as EPP sheds a
 *       non-critical request.</li>
 *   <li>Score = 2 x queue score + 2 x KV-cache score ({@code queue-scorer} and
 *       {@code kv-cache-utilization-scorer} at their default weight 2): queue score
 *       (max - q) / (max - min) over the endpoints left, 1 when all queues are equal; KV-cache
 *       score 1 - usage. Highest score first, equal scores in random order
 *       ({@code max-score-picker}); cost = 4 - score.</li>
 * </ol>
 * Its {@code prefix-cache-scorer} (weight 3) is left out: a row has no per-prefix state and the
 * request profile carries no prompt text. Queue length is the row's, which already counts this
 * router's dispatches the heatmap does not show yet.
 *
 * <p>KV-cache usage: rows carry none (telemetry-ingest parses vLLM's {@code kv_cache_usage_perc}
 * but neither {@code InstanceTelemetry} nor {@code InstanceScore} has a field for it). The
 * policy reads {@code vramFragmentation}, the row's only KV-cache memory signal, which rises
 * with load in the simulated fleet; {@code gpuUtilization} is compute, the pressure the queue
 * scorer already stands for. A scraped vLLM reports fragmentation as 0, so against
 * a real fleet the KV-cache score is flat and only the queue decides.
 *
 * <p>Follows kubernetes-sigs/gateway-api-inference-extension: {@code saturationdetector}
 * ({@code IsSaturated}), {@code common/config/defaults.go} (0.8, 5, 2 s),
 * {@code config/loader/defaults.go} (scorer weights 2, 2, 3), the {@code queue},
 * {@code kvcache_utilization} scorers and the {@code max_score_picker}.
 *
 * <p>Draws ties from its own {@link Random}; pass a seeded one for a repeatable order. Used by
 * one router thread; {@link RoutingPolicies#named} makes a new one per call.
 */
public final class EndpointPickerPolicy implements RoutingPolicy {

  public static final String NAME = "epp";

  static final int QUEUE_DEPTH_THRESHOLD = 5;
  static final double KV_CACHE_UTIL_THRESHOLD = 0.8;
  static final long METRICS_STALENESS_MS = 2_000;
  static final double QUEUE_SCORER_WEIGHT = 2.0;
  static final double KV_CACHE_SCORER_WEIGHT = 2.0;

  private final Random random;

  public EndpointPickerPolicy() {
    this(new Random());
  }

  public EndpointPickerPolicy(final Random random) {
    this.random = requireNonNull(random, "random");
  }

  @Override
  public List<Candidate> rank(final RequestProfile request, final Heatmap heatmap) {
    final List<InstanceScore> withCapacity = freshRows(heatmap).stream()
        .filter(EndpointPickerPolicy::hasCapacity).toList();
    return withCapacity.isEmpty() ? List.of() : scored(heatmap, withCapacity, request);
  }

  /** Rows with fresh telemetry, in instance-id order so that a seeded Random repeats itself. */
  private static List<InstanceScore> freshRows(final Heatmap heatmap) {
    final long newestMs = heatmap.all().stream().mapToLong(InstanceScore::getLastTelemetryMs).max().orElse(0L);
    final List<InstanceScore> fresh = new ArrayList<>();
    for (final InstanceScore row : heatmap.all()) {
      if (row.getLastTelemetryMs() >= newestMs - METRICS_STALENESS_MS) {
        fresh.add(row);
      }
    }
    fresh.sort(Comparator.comparing(InstanceScore::getInstanceId));
    return fresh;
  }

  static boolean hasCapacity(final InstanceScore row) {
    return row.getQueueLength() <= QUEUE_DEPTH_THRESHOLD && kvCacheUsage(row) <= KV_CACHE_UTIL_THRESHOLD;
  }

  /** The row's stand-in for the KV-cache usage fraction (see the class comment). */
  static double kvCacheUsage(final InstanceScore row) {
    return row.getVramFragmentation();
  }

  private List<Candidate> scored(final Heatmap heatmap, final List<InstanceScore> rows,
      final RequestProfile request) {
    final int minQueue = rows.stream().mapToInt(InstanceScore::getQueueLength).min().orElseThrow();
    final int maxQueue = rows.stream().mapToInt(InstanceScore::getQueueLength).max().orElseThrow();
    final List<Candidate> ranked = new ArrayList<>(rows.size());
    for (final InstanceScore row : rows) {
      final double queueScore = maxQueue == minQueue ? 1.0
          : (double) (maxQueue - row.getQueueLength()) / (maxQueue - minQueue);
      final double score = QUEUE_SCORER_WEIGHT * queueScore + KV_CACHE_SCORER_WEIGHT * (1.0 - kvCacheUsage(row));
      ranked.add(new Candidate(row.getInstanceId(), LatencyPredictor.latencyMs(heatmap, row, request),
          QUEUE_SCORER_WEIGHT + KV_CACHE_SCORER_WEIGHT - score));
    }
    // Shuffle, then a stable sort: equal scores end up in random order.
    Collections.shuffle(ranked, random);
    ranked.sort(Comparator.comparingDouble(Candidate::cost));
    return ranked;
  }

  @Override
  public String name() {
    return NAME;
  }
}
