package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class FleetShapeTest {

  @Test
  void shouldNameInstancesAndZonesAsTheFleetStartsThem() {
    final FleetShape shape = new FleetShape(4, 2, Set.of("gpu-3"));

    assertThat(shape.instanceIds()).containsExactly("gpu-0", "gpu-1", "gpu-2", "gpu-3");
    assertThat(shape.zoneNames()).containsExactly("zone-a", "zone-b");
    assertThat(shape.instance(-1)).isEqualTo("gpu-3");
    assertThat(shape).hasToString("4 simulated instances over [zone-a, zone-b], cold at start: [gpu-3]");
  }

  @Test
  void shouldRefuseAColdInstanceOutsideTheFleetAndMoreZonesThanInstances() {
    assertThatThrownBy(() -> new FleetShape(2, 1, Set.of("gpu-2"))).hasMessageContaining("not all in the fleet");
    assertThatThrownBy(() -> new FleetShape(2, 3, Set.of())).hasMessageContaining("zones <= instances");
  }
}
