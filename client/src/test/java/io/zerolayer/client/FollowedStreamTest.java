package io.zerolayer.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.sequence.SequenceView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FollowedStreamTest {

  private final List<ResponseChunk> passed = new ArrayList<>();
  private final FollowedStream followed = new FollowedStream("s", passed::add);

  @Test
  void shouldHandOnOnlyWhatComesAfterThePersistedTokensAndCompleteWithTheWholeStream() throws Exception {
    // Given chunks read before the persisted tokens were known, overlapping them
    followed.fromDurable(durable(0, false, "a", "b"));
    followed.fromDurable(durable(2, false, "c", "d"));

    // When the follower starts after three persisted tokens, and the stream goes on
    followed.start(persisted("a", "b", "c"));
    followed.fromDurable(durable(4, true, "e"));

    // Then each later index goes on once, in order, and the response holds them all
    assertThat(passed).extracting(ResponseChunk::getStartIndex).containsExactly(3, 4);
    assertThat(passed).extracting(ResponseChunk::getTokens).containsExactly(List.of("d"), List.of("e"));
    assertThat(followed.future().get().text()).isEqualTo("abcde");
    assertThat(followed.future().get().outcome()).isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldFailRatherThanSkipTokensTheStreamNeverShowed() {
    followed.start(persisted("a"));

    assertThat(followed.fromDurable(durable(3, false, "d"))).isTrue();

    assertThat(followed.future()).isCompletedExceptionally();
    assertThat(passed).isEmpty();
  }

  @Test
  void shouldPassOverTheRefusalOfAnotherRequestThatReusedTheSequenceId() throws Exception {
    followed.start(persisted("a"));

    final ResponseChunk refusal = ResponseChunk.newBuilder(durable(0, true)).setOutcome(RoutingOutcome.REJECTED)
        .setRequestPartition(1).setRequestOffset(11).build();
    assertThat(followed.fromDurable(refusal)).isFalse();
    assertThat(followed.fromDurable(durable(1, true, "b"))).isTrue();

    assertThat(followed.future().get().text()).isEqualTo("ab");
    assertThat(followed.future().get().outcome()).isEqualTo(RoutingOutcome.DIRECT);
  }

  /** What token-buffer had persisted of the request at partition 1, offset 10. */
  private static SequenceView persisted(final String... tokens) {
    return new SequenceView("s", 1, "gpu-1", "STREAMING", "DIRECT", List.of(tokens), tokens.length, 1, 10, "t");
  }

  /** A chunk of the stream of the request at partition 1, offset 10. */
  private static ResponseChunk durable(final int start, final boolean last, final String... tokens) {
    return ResponseChunk.newBuilder().setSequenceId("s").setStartIndex(start).setTokens(List.of(tokens))
        .setLast(last).setOutcome(last ? RoutingOutcome.DIRECT : null).setRequestPartition(1).setRequestOffset(10)
        .setEmittedAtMs(0).build();
  }
}
