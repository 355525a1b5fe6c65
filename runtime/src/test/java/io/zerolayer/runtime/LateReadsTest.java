package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LateReadsTest {

  private final LateReads reads = new LateReads(250, 1_000, 5_000);

  @Test
  void shouldBeLateWhileEveryRecordOfTheWindowIsReadLongAfterItWasWritten() {
    reads.read(0, 10);
    for (long now = 100; now <= 1_500; now += 100) {
      reads.read(now - 800, now);
    }

    assertThat(reads.late(1_500)).isTrue();
  }

  @Test
  void shouldNotBeLateWhenOneRecordOfTheWindowWasFresh() {
    for (long now = 100; now <= 1_500; now += 100) {
      reads.read(now - 800, now);
    }
    reads.read(1_495, 1_500);

    assertThat(reads.late(1_600)).isFalse();
  }

  @Test
  void shouldStayLateThroughAPauseInTheReadsOfABacklog() {
    reads.read(0, 900);

    assertThat(reads.late(1_000)).isTrue();
    assertThat(reads.late(3_500)).as("a task behind that waits on its commit or a fetch").isTrue();
  }

  @Test
  void shouldNotBeLateWhenNothingIsReadAnyMore() {
    reads.read(0, 900);

    assertThat(reads.late(5_900)).isTrue();
    assertThat(reads.late(5_901)).as("a silent source is silence, not a backlog").isFalse();
  }

  @Test
  void shouldNotBeLateWhenASourceCaughtUpOnFallsSilent() {
    reads.read(0, 900);
    reads.read(1_000, 1_010);

    assertThat(reads.late(2_500)).as("read fresh last: silence since then is the source's").isFalse();
  }

  @Test
  void shouldNotBeLateBeforeAnythingIsRead() {
    assertThat(reads.late(5_000)).isFalse();
  }
}
