package io.zerolayer.tokenbuffer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SilentOwnersTest {

  private final SilentOwners owners = new SilentOwners();

  @Test
  void shouldCallAnInstanceSilentOnceTwoOfItsStreamsStoppedTogether() {
    owners.stopped("gpu-0", "a", 1_000);
    assertThat(owners.trouble("gpu-0", 1_000)).as("one quiet stream is its own connection").isNull();

    owners.stopped("gpu-0", "b", 1_100);

    assertThat(owners.trouble("gpu-0", 1_100)).contains("owner gpu-0 stopped");
    assertThat(owners.trouble("gpu-1", 1_100)).isNull();
  }

  @Test
  void shouldCountASequenceOnceAndNotStreamsSilentFarApart() {
    owners.stopped("gpu-0", "a", 1_000);
    owners.stopped("gpu-0", "a", 1_100);
    assertThat(owners.trouble("gpu-0", 1_100)).isNull();

    owners.stopped("gpu-0", "b", 2_101);

    assertThat(owners.trouble("gpu-0", 2_101)).isNull();
  }

  @Test
  void shouldHoldForThreeSecondsAfterTheLatestSilentStream() {
    owners.stopped("gpu-0", "a", 1_000);
    owners.stopped("gpu-0", "b", 1_000);
    owners.stopped("gpu-0", "c", 2_000);

    assertThat(owners.trouble("gpu-0", 4_999)).isNotNull();
    assertThat(owners.trouble("gpu-0", 5_000)).isNull();
  }

  @Test
  void shouldEndTheSilenceOnceTheEngineEmitsAgainButNotForATokenReadLate() {
    owners.stopped("gpu-0", "a", 1_000);
    owners.stopped("gpu-0", "b", 1_100);

    owners.progressed("gpu-0", 900);
    owners.progressed("gpu-1", 1_300);
    assertThat(owners.trouble("gpu-0", 1_400)).as("emitted before the streams stopped").isNotNull();

    owners.progressed("gpu-0", 1_500);
    assertThat(owners.trouble("gpu-0", 1_600)).isNull();

    owners.stopped("gpu-0", "c", 1_700);
    assertThat(owners.trouble("gpu-0", 1_700)).as("the notes before it moved again are forgotten").isNull();
  }
}
