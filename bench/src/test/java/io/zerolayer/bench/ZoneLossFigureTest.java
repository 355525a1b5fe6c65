package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.zerolayer.fleet.fault.FaultKind;
import org.junit.jupiter.api.Test;

class ZoneLossFigureTest {

  @Test
  void shouldSetTheZonesShareDuringTheLossAgainstItsShareJustBefore() {
    // Given zone-b (gpu-1) losing packets from 20 s to 30 s; before (10-20 s) it took 1 dispatch in 2,
    // during it 1 in 10
    final RunFixture fixture = new RunFixture()
        .fault(FaultKind.ZONE_LOSS, "zone-b", 20_000, "gpu-1")
        .fault(FaultKind.ZONE_RESTORE, "zone-b", 30_000, "gpu-1");
    for (int i = 0; i < 10; i++) {
      fixture.dispatch("before-" + i, 1, i % 2 == 0 ? "gpu-1" : "gpu-0", 10_000 + i * 1_000);
      fixture.dispatch("during-" + i, 1, i == 0 ? "gpu-1" : "gpu-0", 20_000 + i * 1_000);
    }
    fixture.dispatch("long-before", 1, "gpu-1", 5_000).dispatch("after", 1, "gpu-1", 30_000);

    final Figure moved = ZoneLossFigure.of(fixture.run("p"));

    assertThat(moved.value().getAsDouble()).isCloseTo(0.8, offset(1e-9));
    assertThat(moved.text()).isEqualTo("80.0 % (zone's share 50.0 % -> 10.0 %)");
  }

  @Test
  void shouldBeNotApplicableWhenTheZoneHadNoTrafficBefore() {
    final RunFixture fixture = new RunFixture()
        .fault(FaultKind.ZONE_LOSS, "zone-b", 20_000, "gpu-1")
        .dispatch("a", 1, "gpu-0", 19_000)
        .dispatch("b", 1, "gpu-0", 21_000);

    assertThat(ZoneLossFigure.of(fixture.run("p")).text()).isEqualTo("n/a: no dispatch to zone-b before the loss");
  }
}
