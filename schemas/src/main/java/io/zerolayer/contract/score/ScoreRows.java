package io.zerolayer.contract.score;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;

/**
 * What a heatmap row means to the apps that read it (the router and token-buffer), so that both
 * read it the same way.
 */
public final class ScoreRows {

  /** Warm-up from this on is warm; below it the instance still loads its weights and is pre-warmed. */
  public static final double WARM_LEVEL = 0.95;
  /** VRAM fragmentation above this is critical: allocations fail, and the instance is observed for ejection. */
  public static final double FRAGMENTATION_CRITICAL = 0.92;

  private ScoreRows() {
  }

  /** Whether the instance may take new work at all: known, of positive weight, and in service. */
  public static boolean usable(final InstanceScore row) {
    return row != null
        && row.getWeight() > 0.0
        && row.getState() != InstanceState.EJECTED
        && row.getState() != InstanceState.UNAVAILABLE
        && row.getState() != InstanceState.SUSPECT;
  }

  /** Whether the instance loses packets: its own retransmits are high, or its zone is penalised. */
  public static boolean lossy(final InstanceScore row) {
    return row.getZonePenalised() || row.getNetworkDegraded();
  }

  /**
   * Whether the instance still generates, though it loses packets: lossy, in service (neither
   * ejected, suspect nor out of memory), and of no weight for new work at most because of its
   * token cadence, which a retransmission timeout now and then spreads past the cut-over
   * threshold. Its streams slow and go on.
   */
  public static boolean lossyButServing(final InstanceScore row) {
    return row != null && lossy(row)
        && row.getState() != InstanceState.EJECTED && row.getState() != InstanceState.SUSPECT
        && row.getVramFragmentation() <= FRAGMENTATION_CRITICAL
        && (usable(row) || row.getCutOverInFlight());
  }

  /** Whether the instance has loaded its weights. */
  public static boolean warm(final InstanceScore row) {
    return row.getWarmupLevel() >= WARM_LEVEL;
  }
}
