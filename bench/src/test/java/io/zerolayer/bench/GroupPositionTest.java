package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class GroupPositionTest {

  private static final TopicPartition P0 = new TopicPartition("telemetry", 0);
  private static final TopicPartition P1 = new TopicPartition("telemetry", 1);
  private static final TopicPartition P2 = new TopicPartition("telemetry", 2);
  private static final Map<TopicPartition, Long> START = Map.of(P0, 0L, P1, 0L, P2, 100L);
  private static final Map<TopicPartition, Long> END = Map.of(P0, 400L, P1, 0L, P2, 350L);

  @Test
  void shouldCountNothingConsumedBeforeTheGroupFirstCommits() {
    final GroupPosition position = new GroupPosition(START, END, Map.of());

    assertThat(position.total()).isEqualTo(650);
    assertThat(position.consumed()).isZero();
    assertThat(position.lag()).isEqualTo(650);
    assertThat(position.caughtUp()).isFalse();
  }

  @Test
  void shouldCountFromEachPartitionsStartToItsCommittedOffset() {
    // P2's log starts at 100 (older records deleted): its committed 300 means 200 consumed.
    final GroupPosition position = new GroupPosition(START, END, Map.of(P0, 150L, P2, 300L));

    assertThat(position.consumed()).isEqualTo(150 + 200);
    assertThat(position.lag()).isEqualTo(250 + 50);
    assertThat(position.caughtUp()).isFalse();
  }

  @Test
  void shouldBeCaughtUpWhenEveryNonEmptyPartitionIsCommittedToItsEnd() {
    // P1 is empty and was never committed; it holds nothing to wait for.
    final GroupPosition position = new GroupPosition(START, END, Map.of(P0, 400L, P2, 350L));

    assertThat(position.consumed()).isEqualTo(position.total());
    assertThat(position.caughtUp()).isTrue();
  }

  @Test
  void shouldNotBeCaughtUpWhileOnePartitionLagsByOneRecord() {
    final GroupPosition position = new GroupPosition(START, END, Map.of(P0, 399L, P2, 350L));

    assertThat(position.lag()).isEqualTo(1);
    assertThat(position.caughtUp()).isFalse();
  }

  @Test
  void shouldClampCommittedOffsetsOutsideTheLog() {
    // Committed past an end looked up a moment earlier, and behind a start that moved on.
    final GroupPosition position = new GroupPosition(START, END, Map.of(P0, 500L, P2, 20L));

    assertThat(position.consumed()).isEqualTo(400);
  }

  @Test
  void shouldRejectStartAndEndOffsetsOfDifferentPartitions() {
    assertThatThrownBy(() -> new GroupPosition(Map.of(P0, 0L), Map.of(P1, 5L), Map.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
