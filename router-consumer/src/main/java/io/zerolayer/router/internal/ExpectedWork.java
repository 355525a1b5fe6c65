package io.zerolayer.router.internal;

import io.zerolayer.router.policy.OwnWork;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * This router's requests on each instance, with when it expected each to start and end as it
 * dispatched them: what a queue-wait estimate needs to know of a batch that one burst filled
 * ({@link OwnWork}). A request leaves once it was expected to end, or when its sequence is cut
 * away from the instance. Used by one router thread only.
 */
public final class ExpectedWork {

  private record Run(long startMs, long endMs) {
  }

  private final Map<String, Map<String, Run>> byInstance = new HashMap<>();

  /** Notes a sequence dispatched to an instance, expected to start at {@code startMs} and end at {@code endMs}. */
  public void dispatched(final String instanceId, final String sequenceId, final long startMs, final long endMs,
      final long nowMs) {
    final Map<String, Run> runs = byInstance.computeIfAbsent(instanceId, id -> new LinkedHashMap<>());
    runs.values().removeIf(run -> run.endMs() <= nowMs);
    runs.put(sequenceId, new Run(startMs, Math.max(startMs, endMs)));
  }

  /** Notes that a sequence left an instance before its end: its slot there is free. */
  public void cutAway(final String instanceId, final String sequenceId) {
    final Map<String, Run> runs = byInstance.get(instanceId);
    if (runs != null && runs.remove(sequenceId) != null && runs.isEmpty()) {
      byInstance.remove(instanceId);
    }
  }

  /** Each instance's own work at {@code nowMs}, worked out for an instance when first asked. */
  public Function<String, OwnWork> at(final long nowMs) {
    if (byInstance.isEmpty()) {
      return id -> OwnWork.NONE;
    }
    final Map<String, OwnWork> asked = new HashMap<>();
    return instanceId -> asked.computeIfAbsent(instanceId, id -> of(id, nowMs));
  }

  private OwnWork of(final String instanceId, final long nowMs) {
    final Map<String, Run> runs = byInstance.get(instanceId);
    if (runs == null) {
      return OwnWork.NONE;
    }
    runs.values().removeIf(run -> run.endMs() <= nowMs);
    if (runs.isEmpty()) {
      byInstance.remove(instanceId);
      return OwnWork.NONE;
    }
    final double[] left = runs.values().stream().filter(run -> run.startMs() <= nowMs)
        .mapToDouble(run -> run.endMs() - nowMs).toArray();
    final double[] queued = runs.values().stream().filter(run -> run.startMs() > nowMs)
        .sorted((a, b) -> Long.compare(a.startMs(), b.startMs()))
        .mapToDouble(run -> run.endMs() - run.startMs()).toArray();
    return left.length == 0 && queued.length == 0 ? OwnWork.NONE : new OwnWork(left, queued);
  }
}
