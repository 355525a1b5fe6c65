package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HandledStallsTest {

  private final HandledStalls stalls = new HandledStalls();

  @Test
  void shouldKnowAnAttemptCutOverInTheOpenTransactionOrACommittedOne() {
    stalls.handle(2, 41, 1);

    assertThat(stalls.handled(2, 41, 1)).as("in the open transaction").isTrue();
    stalls.settle(true);
    assertThat(stalls.handled(2, 41, 1)).as("committed").isTrue();
    assertThat(stalls.handled(2, 41, 2)).as("the backup's own attempt").isFalse();
    assertThat(stalls.handled(2, 42, 1)).as("a new request, though it may reuse the sequence id").isFalse();
    assertThat(stalls.handled(3, 41, 1)).isFalse();
  }

  @Test
  void shouldForgetTheCutOversOfAnAbortedTransactionWhoseRecordsAreReadAgain() {
    stalls.handle(0, 1, 1);
    stalls.settle(true);
    stalls.handle(0, 2, 1);

    stalls.settle(false);

    assertThat(stalls.handled(0, 2, 1)).isFalse();
    assertThat(stalls.handled(0, 1, 1)).as("committed before").isTrue();
  }

  @Test
  void shouldForgetTheOldestBeyondItsCapacity() {
    for (int offset = 0; offset <= HandledStalls.CAPACITY; offset++) {
      stalls.handle(0, offset, 1);
    }
    stalls.settle(true);

    assertThat(stalls.handled(0, 0, 1)).isFalse();
    assertThat(stalls.handled(0, 1, 1)).isTrue();
    assertThat(stalls.handled(0, HandledStalls.CAPACITY, 1)).isTrue();
  }
}
