package io.zerolayer.tokenbuffer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FleetPaceTest {

  private final FleetPace pace = new FleetPace();

  @Test
  void shouldCallItTheFleetsWhenStreamsSlowedOnMoreThanAThirdOfTheInstances() {
    for (int i = 0; i < 6; i++) {
      pace.note("gpu-" + i, i < 3);
      pace.note("gpu-" + i, false);
    }
    assertThat(pace.slow()).as("not before the sweep ends").isFalse();

    pace.endSweep();

    assertThat(pace.slow()).isTrue();
  }

  @Test
  void shouldNotCallALossyZoneOrOneInstanceTheFleets() {
    for (int i = 0; i < 6; i++) {
      pace.note("gpu-" + i, i < 2);
    }
    pace.endSweep();
    assertThat(pace.slow()).as("two of six").isFalse();

    pace.note("gpu-0", true);
    pace.endSweep();
    assertThat(pace.slow()).as("the only instance with streams here").isFalse();
  }

  @Test
  void shouldJudgeEachSweepOnItsOwn() {
    pace.note("gpu-0", true);
    pace.note("gpu-1", true);
    pace.endSweep();
    assertThat(pace.slow()).isTrue();

    pace.note("gpu-0", false);
    pace.note("gpu-1", false);
    pace.endSweep();

    assertThat(pace.slow()).isFalse();
  }
}
