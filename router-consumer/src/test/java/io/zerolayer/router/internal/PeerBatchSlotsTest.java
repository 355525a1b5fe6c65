package io.zerolayer.router.internal;

import static io.zerolayer.router.internal.DeciderTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceScore;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerBatchSlotsTest {

  @Test
  void shouldGiveAnInstanceWithoutABatchTheLargestOfItsClassPeers() {
    final Map<String, InstanceScore> filled = PeerBatchSlots.fill(Map.of(
        "fast-1", of("fast-1", "fast", 16), "fast-2", of("fast-2", "fast", 12), "fast-3", of("fast-3", "fast", 0),
        "slow-1", of("slow-1", "slow", 0)));

    assertThat(filled.get("fast-3").getBatchSlots()).isEqualTo(16);
    assertThat(filled.get("fast-2").getBatchSlots()).as("its own stays").isEqualTo(12);
    assertThat(filled.get("slow-1").getBatchSlots()).as("no peer of its class knows").isZero();
  }

  @Test
  void shouldNotTakeTheBatchOfAnotherModel() {
    final InstanceScore other = of("other-1", "fast", 32);
    other.setModel("another");

    final Map<String, InstanceScore> filled = PeerBatchSlots.fill(Map.of("other-1", other,
        "fast-1", of("fast-1", "fast", 0)));

    assertThat(filled.get("fast-1").getBatchSlots()).isZero();
  }

  private static InstanceScore of(final String id, final String instanceClass, final int slots) {
    final InstanceScore row = row(id, 1.0, 0);
    row.setInstanceClass(instanceClass);
    row.setBatchSlots(slots);
    return row;
  }
}
