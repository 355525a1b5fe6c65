package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyPredictor;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * This router's own dispatches that the heatmap cannot show yet: those that reached the instance
 * after its last telemetry sample, a dispatch reaching it its measured handoff (decision to the
 * worker's start) after it was made. A sample taken between the two does not hold it, and counted
 * as seen there, the dispatches of a burst went missing from the load the next decisions saw.
 * Counting them into the instance's load keeps a burst of requests that arrives between two
 * heatmap updates from herding onto one instance. They fill the instance's free batch slots first
 * and queue behind them ({@code batchSlots} of its row). Used by one router thread only.
 */
public final class LocalDispatches {

  /** Dispatches older than this are surely in the heatmap (or lost with their instance). */
  private static final long HORIZON_MS = 5_000;

  private final Map<String, Deque<Long>> byInstance = new HashMap<>();

  /** Notes a dispatch to an instance. */
  public void record(final String instanceId, final long nowMs) {
    byInstance.computeIfAbsent(instanceId, id -> new ArrayDeque<>()).addLast(nowMs);
  }

  /** The heatmap with each instance's unseen dispatches added to its queue. */
  public Heatmap applyTo(final Heatmap heatmap, final long nowMs) {
    if (byInstance.isEmpty()) {
      return heatmap;
    }
    final Map<String, InstanceScore> rows = new HashMap<>(heatmap.rows());
    byInstance.entrySet().removeIf(entry -> {
      final Deque<Long> times = entry.getValue();
      final InstanceScore row = rows.get(entry.getKey());
      // What a dispatch made at this time or before had reached when the instance was last sampled.
      final long seenUpTo = row == null ? nowMs - HORIZON_MS
          : Math.max(row.getLastTelemetryMs() - Math.round(LatencyPredictor.handoffMs(row)), nowMs - HORIZON_MS);
      while (!times.isEmpty() && times.peekFirst() <= seenUpTo) {
        times.pollFirst();
      }
      if (row != null && !times.isEmpty()) {
        rows.put(entry.getKey(), withUnseen(row, times.size()));
      }
      return times.isEmpty();
    });
    return heatmap.withLoad(rows);
  }

  /**
   * An instance without a queue had free batch slots when it was sampled: the unseen dispatches
   * run in them, as many as there are (all of them while its batch size is not known yet), and the
   * rest queue. Behind a queue they all wait in it.
   */
  private static InstanceScore withUnseen(final InstanceScore row, final int unseen) {
    final int slots = row.getBatchSlots();
    final InstanceScore loaded = sharing(row);
    if (row.getQueueLength() > 0) {
      loaded.setQueueLength(row.getQueueLength() + unseen);
      return loaded;
    }
    final int running = slots > 0 ? Math.min(unseen, Math.max(0, slots - row.getRunningRequests())) : unseen;
    loaded.setRunningRequests(row.getRunningRequests() + running);
    loaded.setQueueLength(unseen - running);
    return loaded;
  }

  /**
   * A copy of the row that shares its model and lists: a snapshot's rows are never changed, and a
   * builder's deep copy of every row a burst landed on cost a decision over many instances more
   * than its ranking.
   */
  private static InstanceScore sharing(final InstanceScore row) {
    final InstanceScore copy = new InstanceScore();
    final int fields = InstanceScore.getClassSchema().getFields().size();
    for (int i = 0; i < fields; i++) {
      copy.put(i, row.get(i));
    }
    return copy;
  }
}
