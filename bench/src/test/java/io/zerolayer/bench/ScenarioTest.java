package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScenarioTest {

  private static final FleetShape FLEET = new FleetShape(6, 3, Set.of());

  @Test
  void shouldGiveEachFaultItsOwnQuarterOfTheMeasuredPartInScenarioAll() {
    // 20 s warm-up, 100 s measured: quarters start at 20, 45, 70 and 95 s
    final String schedule = Scenario.ALL.schedule(FLEET, Duration.ofSeconds(20), Duration.ofSeconds(120)).toString();

    assertThat(schedule).isEqualTo("oom@25s:gpu-1, recover@35s:gpu-1, zone-loss@47500ms:zone-c, "
        + "zone-restore@67500ms:zone-c, cold@75s:gpu-5, stall@100s:gpu-0, resume@104s:gpu-0, stall@108750ms:gpu-2, "
        + "resume@112750ms:gpu-2");
  }

  @Test
  void shouldInjectASingleFaultAFifthOfTheWayInAndEndItAtThreeFifths() {
    assertThat(Scenario.OOM.schedule(FLEET, Duration.ofSeconds(2), Duration.ofSeconds(12)).toString())
        .isEqualTo("oom@4s:gpu-1, recover@8s:gpu-1");
    assertThat(Scenario.STEADY.schedule(FLEET, Duration.ZERO, Duration.ofSeconds(10)).isEmpty()).isTrue();
  }

  @Test
  void shouldLetAZoneLossLastFromATenthToNineTenths() {
    assertThat(Scenario.ZONE_LOSS.schedule(FLEET, Duration.ofSeconds(2), Duration.ofSeconds(12)).toString())
        .isEqualTo("zone-loss@3s:zone-c, zone-restore@11s:zone-c");
  }

  @Test
  void shouldRefuseAZoneLossInAFleetOfOneZone() {
    assertThatThrownBy(() -> Scenario.ZONE_LOSS.schedule(new FleetShape(3, 1, Set.of()), Duration.ZERO,
        Duration.ofSeconds(10))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 zones or more");
  }

  @Test
  void shouldBeFoundByItsSpelling() {
    assertThat(Scenario.named("cold-start")).contains(Scenario.COLD_START);
    assertThat(Scenario.named("cold")).isEmpty();
  }
}
