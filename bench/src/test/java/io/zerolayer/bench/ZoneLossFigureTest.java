package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.zerolayer.fleet.fault.FaultKind;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

class ZoneLossFigureTest {

  @Test
  void shouldSetTheZonesShareDuringTheLossAgainstItsShareJustBefore() {
    // Given zone-b (gpu-1) losing packets from 20 s to 30 s; before (10-20 s) it took 1 dispatch in 2,
    // during it 1 in 10
    final RunFixture fixture = lossOfGpu1(new RunFixture().room(0, "gpu-0"), i -> i == 0 ? "gpu-1" : "gpu-0");
    fixture.dispatch("long-before", 1, "gpu-1", 5_000).dispatch("after", 1, "gpu-1", 30_000);

    final Figure moved = ZoneLossFigure.of(fixture.run("p"));

    assertThat(moved.value().getAsDouble()).isCloseTo(0.8, offset(1e-9));
    assertThat(moved.text()).isEqualTo("80.0 % of 10 dispatches with room elsewhere (zone's share -> 10.0 %); "
        + "80.0 % over all 10 dispatches of the loss (zone's share 50.0 % -> 10.0 %)");
  }

  @Test
  void shouldCountOnlyTheDispatchesDecidedWhileAnotherZoneHadRoom() {
    // Given gpu-0 with room until 25 s and none after, when every dispatch went to the lossy gpu-1
    final RunFixture fixture = lossOfGpu1(new RunFixture().room(0, "gpu-0", "gpu-1").room(25_000, "gpu-1"),
        i -> i == 0 || i >= 5 ? "gpu-1" : "gpu-0");

    final Figure moved = ZoneLossFigure.of(fixture.run("p"));

    assertThat(moved.value().getAsDouble()).isCloseTo(0.6, offset(1e-9));
    assertThat(moved.text()).isEqualTo("60.0 % of 5 dispatches with room elsewhere (zone's share -> 20.0 %); "
        + "-20.0 % over all 10 dispatches of the loss (zone's share 50.0 % -> 60.0 %)");
  }

  @Test
  void shouldBeNotApplicableWhenNoOtherZoneHadRoomDuringTheLoss() {
    final RunFixture fixture = new RunFixture().room(0, "gpu-1")
        .fault(FaultKind.ZONE_LOSS, "zone-b", 20_000, "gpu-1")
        .dispatch("a", 1, "gpu-1", 19_000)
        .dispatch("b", 1, "gpu-1", 21_000);

    assertThat(ZoneLossFigure.of(fixture.run("p")).text()).isEqualTo("n/a: no other zone had room while the zone "
        + "lost packets; 0.0 % over all 1 dispatches of the loss (zone's share 100.0 % -> 100.0 %)");
  }

  @Test
  void shouldBeNotApplicableWhenTheZoneHadNoTrafficBefore() {
    final RunFixture fixture = new RunFixture()
        .fault(FaultKind.ZONE_LOSS, "zone-b", 20_000, "gpu-1")
        .dispatch("a", 1, "gpu-0", 19_000)
        .dispatch("b", 1, "gpu-0", 21_000);

    assertThat(ZoneLossFigure.of(fixture.run("p")).text()).isEqualTo("n/a: no dispatch to zone-b before the loss");
  }

  /**
   * zone-b (gpu-1) losing packets from 20 s to 30 s: before (10-20 s) one dispatch a second,
   * every other one to gpu-1; during it, one a second to {@code during}'s instance for the i-th.
   */
  private static RunFixture lossOfGpu1(final RunFixture fixture, final IntFunction<String> during) {
    fixture.fault(FaultKind.ZONE_LOSS, "zone-b", 20_000, "gpu-1").fault(FaultKind.ZONE_RESTORE, "zone-b", 30_000,
        "gpu-1");
    for (int i = 0; i < 10; i++) {
      fixture.dispatch("before-" + i, 1, i % 2 == 0 ? "gpu-1" : "gpu-0", 10_000 + i * 1_000);
      fixture.dispatch("during-" + i, 1, during.apply(i), 20_000 + i * 1_000);
    }
    return fixture;
  }
}
