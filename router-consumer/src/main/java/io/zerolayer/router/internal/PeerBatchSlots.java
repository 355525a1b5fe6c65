package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An instance whose row does not know its batch yet (it has not had a queue since the heatmap
 * first saw it) is given its peers' batch: the largest the instances of its model and class
 * showed, since instances of one class are alike. Without it, a router would take every slot of
 * a fresh instance for free until its first queue.
 */
final class PeerBatchSlots {

  private PeerBatchSlots() {
  }

  /** The rows, those without a batch of their own given their peers'; the same map when none is. */
  static Map<String, InstanceScore> fill(final Map<String, InstanceScore> rows) {
    final Map<List<String>, Integer> known = new HashMap<>();
    boolean missing = false;
    for (final InstanceScore row : rows.values()) {
      if (row.getBatchSlots() > 0) {
        known.merge(peers(row), row.getBatchSlots(), Math::max);
      } else {
        missing = true;
      }
    }
    if (!missing || known.isEmpty()) {
      return rows;
    }
    final Map<String, InstanceScore> filled = new HashMap<>(rows);
    rows.forEach((id, row) -> {
      final Integer slots = row.getBatchSlots() > 0 ? null : known.get(peers(row));
      if (slots != null) {
        filled.put(id, InstanceScore.newBuilder(row).setBatchSlots(slots).build());
      }
    });
    return filled;
  }

  private static List<String> peers(final InstanceScore row) {
    return Arrays.asList(row.getModel(), row.getInstanceClass());
  }
}
