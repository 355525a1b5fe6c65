package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HandledStallsTest {

  private final HandledStalls stalls = new HandledStalls();

  @Test
  void shouldKnowAnAttemptCutOverInTheOpenTransactionOrACommittedOne() {
    stalls.handle("s-1", 1);

    assertThat(stalls.handled("s-1", 1)).as("in the open transaction").isTrue();
    stalls.settle(true);
    assertThat(stalls.handled("s-1", 1)).as("committed").isTrue();
    assertThat(stalls.handled("s-1", 2)).as("the backup's own attempt").isFalse();
    assertThat(stalls.handled("s-2", 1)).isFalse();
  }

  @Test
  void shouldForgetTheCutOversOfAnAbortedTransactionWhoseRecordsAreReadAgain() {
    stalls.handle("s-1", 1);
    stalls.settle(true);
    stalls.handle("s-2", 1);

    stalls.settle(false);

    assertThat(stalls.handled("s-2", 1)).isFalse();
    assertThat(stalls.handled("s-1", 1)).as("committed before").isTrue();
  }

  @Test
  void shouldForgetTheOldestBeyondItsCapacity() {
    for (int i = 0; i <= HandledStalls.CAPACITY; i++) {
      stalls.handle("s-" + i, 1);
    }
    stalls.settle(true);

    assertThat(stalls.handled("s-0", 1)).isFalse();
    assertThat(stalls.handled("s-1", 1)).isTrue();
    assertThat(stalls.handled("s-" + HandledStalls.CAPACITY, 1)).isTrue();
  }
}
