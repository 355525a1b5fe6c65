package io.zerolayer.tokenbuffer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SilentOwnersTest {

  /** An attempt decided before any of the streams stopped. */
  private static final long BEFORE = 500;
  private static final long NO_PREDICTION = 0;

  private final SilentOwners owners = new SilentOwners();

  @Test
  void shouldCallAnInstanceSilentOnceTwoOfItsStreamsStoppedTogether() {
    owners.stopped("gpu-0", "a", 1_000);
    assertThat(owners.trouble("gpu-0", 1_000, BEFORE, NO_PREDICTION)).as("one quiet stream is its own connection")
        .isNull();

    owners.stopped("gpu-0", "b", 1_100);

    assertThat(owners.trouble("gpu-0", 1_100, BEFORE, NO_PREDICTION)).contains("owner gpu-0 stopped");
    assertThat(owners.trouble("gpu-1", 1_100, BEFORE, NO_PREDICTION)).isNull();
  }

  @Test
  void shouldCountASequenceOnceAndNotStreamsSilentFarApart() {
    owners.stopped("gpu-0", "a", 1_000);
    owners.stopped("gpu-0", "a", 1_100);
    assertThat(owners.trouble("gpu-0", 1_100, BEFORE, NO_PREDICTION)).isNull();

    owners.stopped("gpu-0", "b", 2_101);

    assertThat(owners.trouble("gpu-0", 2_101, BEFORE, NO_PREDICTION)).isNull();
  }

  @Test
  void shouldHoldForThreeSecondsAfterTheLatestSilentStream() {
    owners.stopped("gpu-0", "a", 1_000);
    owners.stopped("gpu-0", "b", 1_000);
    owners.stopped("gpu-0", "c", 2_000);

    assertThat(owners.trouble("gpu-0", 4_999, BEFORE, NO_PREDICTION)).isNotNull();
    assertThat(owners.trouble("gpu-0", 5_000, BEFORE, NO_PREDICTION)).isNull();
  }

  @Test
  void shouldEndTheSilenceOnceTheEngineEmitsAgainButNotForATokenReadLate() {
    owners.stopped("gpu-0", "a", 1_000);
    owners.stopped("gpu-0", "b", 1_100);

    owners.progressed("gpu-0", 900);
    owners.progressed("gpu-1", 1_300);
    assertThat(owners.trouble("gpu-0", 1_400, BEFORE, NO_PREDICTION)).as("emitted before the streams stopped")
        .isNotNull();

    owners.progressed("gpu-0", 1_500);
    assertThat(owners.trouble("gpu-0", 1_600, BEFORE, NO_PREDICTION)).isNull();

    owners.stopped("gpu-0", "c", 1_700);
    assertThat(owners.trouble("gpu-0", 1_700, BEFORE, NO_PREDICTION))
        .as("the notes before it moved again are forgotten").isNull();
  }

  @Test
  void shouldGiveAnAttemptDecidedAfterTheStopUntilItsFirstTokenIsOverdue() {
    owners.stopped("gpu-0", "a", 1_000);
    owners.stopped("gpu-0", "b", 1_100);

    assertThat(owners.trouble("gpu-0", 2_329, 2_000, 2_130))
        .as("decided after the stop, its predicted first token not overdue yet").isNull();
    assertThat(owners.trouble("gpu-0", 2_330, 2_000, 2_130)).isNotNull();
    assertThat(owners.trouble("gpu-0", 2_199, 2_000, NO_PREDICTION)).isNull();
    assertThat(owners.trouble("gpu-0", 2_200, 2_000, NO_PREDICTION)).isNotNull();
    assertThat(owners.trouble("gpu-0", 1_200, 1_050, 1_100)).as("decided before the latest stop").isNotNull();
  }
}
