package io.zerolayer.tokenbuffer.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;

/** What the heatmap says about the instance that owns a sequence, as far as stalls go. */
final class OwnerHealth {

  private OwnerHealth() {
  }

  /**
   * @param row the instance's heatmap row, or null when the heatmap does not know it
   * @return why its sequences must move now, or null when they may stay
   */
  static String trouble(final String instanceId, final InstanceScore row) {
    if (row == null) {
      return null;
    }
    if (row.getState() == InstanceState.EJECTED) {
      return "owner " + instanceId + " ejected by the heatmap (" + row.getReason() + ")";
    }
    if (row.getCutOverInFlight()) {
      return "owner " + instanceId + "'s token cadence is past the cut-over threshold (" + row.getReason() + ")";
    }
    return null;
  }
}
