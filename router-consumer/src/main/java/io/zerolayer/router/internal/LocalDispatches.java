package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.router.policy.Heatmap;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * This router's own dispatches that the heatmap cannot show yet: those made after an
 * instance's last telemetry sample. Counting them into the instance's load keeps a burst of
 * requests that arrives between two heatmap updates from herding onto one instance. They fill
 * the instance's free batch slots first and queue behind them; the slots are learned from the
 * heatmap itself, as the requests an instance ran the last time it had a queue (a full batch).
 * Used by one router thread only.
 */
public final class LocalDispatches {

  /** Dispatches older than this are surely in the heatmap (or lost with their instance). */
  private static final long HORIZON_MS = 5_000;

  private final Map<String, Deque<Long>> byInstance = new HashMap<>();
  /** Requests each instance ran the last time the heatmap showed it with a queue. */
  private final Map<String, Integer> batchSlots = new HashMap<>();
  /** The heatmap snapshot the slots were last learned from: each is read once, not per decision. */
  private Heatmap learnedFrom;

  /** Notes a dispatch to an instance. */
  public void record(final String instanceId, final long nowMs) {
    byInstance.computeIfAbsent(instanceId, id -> new ArrayDeque<>()).addLast(nowMs);
  }

  /** The heatmap with each instance's unseen dispatches added to its queue. */
  public Heatmap applyTo(final Heatmap heatmap, final long nowMs) {
    learnBatchSlots(heatmap);
    if (byInstance.isEmpty()) {
      return heatmap;
    }
    final Map<String, InstanceScore> rows = new HashMap<>(heatmap.rows());
    byInstance.entrySet().removeIf(entry -> {
      final Deque<Long> times = entry.getValue();
      final InstanceScore row = rows.get(entry.getKey());
      final long seenUpTo = row == null ? nowMs - HORIZON_MS : Math.max(row.getLastTelemetryMs(), nowMs - HORIZON_MS);
      while (!times.isEmpty() && times.peekFirst() <= seenUpTo) {
        times.pollFirst();
      }
      if (row != null && !times.isEmpty()) {
        rows.put(entry.getKey(), withUnseen(row, times.size(), batchSlots.getOrDefault(entry.getKey(), 0)));
      }
      return times.isEmpty();
    });
    return heatmap.withLoad(rows);
  }

  private void learnBatchSlots(final Heatmap heatmap) {
    if (heatmap == learnedFrom) {
      return;
    }
    learnedFrom = heatmap;
    for (final InstanceScore row : heatmap.all()) {
      if (row.getQueueLength() > 0 && row.getRunningRequests() > 0) {
        batchSlots.put(row.getInstanceId(), row.getRunningRequests());
      }
    }
  }

  /**
   * An instance without a queue had free batch slots when it was sampled: the unseen dispatches
   * run in them, as many as there are ({@code slots}; all of them while not known yet), and the
   * rest queue. Behind a queue they all wait in it.
   */
  private static InstanceScore withUnseen(final InstanceScore row, final int unseen, final int slots) {
    final InstanceScore.Builder builder = InstanceScore.newBuilder(row);
    if (row.getQueueLength() > 0) {
      return builder.setQueueLength(row.getQueueLength() + unseen).build();
    }
    final int running = slots > 0 ? Math.min(unseen, Math.max(0, slots - row.getRunningRequests())) : unseen;
    return builder.setRunningRequests(row.getRunningRequests() + running)
        .setQueueLength(unseen - running).build();
  }
}
