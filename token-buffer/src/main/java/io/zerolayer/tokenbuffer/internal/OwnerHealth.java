package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.score.ScoreRows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the heatmap says about the instance that owns a sequence, as far as stalls go, as of
 * one sweep. An owner the heatmap ejected, or whose token cadence is past the cut-over
 * threshold, loses its sequences. So does an owner still loading its weights (warm-up below
 * the router's pre-warm threshold) its sequences without a token yet, while a warm instance
 * could start them now: a request sent to an instance just before the heatmap showed its
 * restart, or by a policy that does not look, does not wait for the load.
 */
final class OwnerHealth {

  private final Function<String, InstanceScore> rows;
  private final Iterable<InstanceScore> all;
  /** Rows read so far in this sweep: hundreds of sequences share a few owners. */
  private final Map<String, Optional<InstanceScore>> read = new HashMap<>();
  private List<String> warm;

  /**
   * @param rows the heatmap row of an instance, or null when the heatmap does not know it
   * @param all every heatmap row; read at most once, when a cold owner is met
   */
  OwnerHealth(final Function<String, InstanceScore> rows, final Iterable<InstanceScore> all) {
    this.rows = rows;
    this.all = all;
  }

  /**
   * @param attemptStarted whether the owner's attempt has produced a token
   * @return why the owner's sequence must move now, or null when it may stay
   */
  String trouble(final String instanceId, final boolean attemptStarted) {
    final InstanceScore row = read.computeIfAbsent(instanceId, id -> Optional.ofNullable(rows.apply(id)))
        .orElse(null);
    if (row == null) {
      return null;
    }
    if (row.getState() == InstanceState.EJECTED) {
      return "owner " + instanceId + " ejected by the heatmap (" + row.getReason() + ")";
    }
    if (row.getCutOverInFlight()) {
      return "owner " + instanceId + "'s token cadence is past the cut-over threshold (" + row.getReason() + ")";
    }
    if (!attemptStarted && !ScoreRows.warm(row) && warmInstanceOtherThan(instanceId)) {
      return String.format("owner %s is loading its weights (warm-up %.0f%%) and a warm instance can start the"
          + " sequence now", instanceId, 100 * row.getWarmupLevel());
    }
    return null;
  }

  private boolean warmInstanceOtherThan(final String instanceId) {
    if (warm == null) {
      warm = new ArrayList<>();
      for (final InstanceScore row : all) {
        if (ScoreRows.usable(row) && ScoreRows.warm(row)) {
          warm.add(row.getInstanceId());
        }
      }
    }
    return warm.size() > 1 || warm.size() == 1 && !warm.get(0).equals(instanceId);
  }
}
