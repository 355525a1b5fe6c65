package io.zerolayer.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.TokenChunk;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamMergerTest {

  private final StreamMerger merger = new StreamMerger("s");

  @Test
  void shouldPassOnAWorkersTokensAtOnceAndOnlyTheLastChunkOfTheDurableStream() {
    assertThat(merger.fromWorker(chunk(1, "gpu-1", 0))).isNull();
    assertThat(merger.fromWorker(chunk(1, "gpu-1", 0, "a", "b")).getTokens()).containsExactly("a", "b");
    assertThat(merger.fromWorker(chunk(1, "gpu-1", 2, "c")).getStartIndex()).isEqualTo(2);

    assertThat(merger.fromDurable(durable(0, false, "a", "b"))).isNull();
    final ResponseChunk last = merger.fromDurable(durable(2, true, "c"));

    assertThat(last.getLast()).isTrue();
    assertThat(last.getStartIndex()).isEqualTo(3);
    assertThat(last.getTokens()).isEmpty();
    assertThat(merger.passed()).containsExactly("a", "b", "c");
    assertThat(merger.divergences()).isZero();
  }

  @Test
  void shouldFillInFromTheDurableStreamWhatTheWorkersChunksHaveNotBroughtYet() {
    merger.fromWorker(chunk(1, "gpu-1", 0, "a"));

    assertThat(merger.fromDurable(durable(0, false, "a", "b")).getTokens()).containsExactly("b");
    assertThat(merger.fromWorker(chunk(1, "gpu-1", 1, "b", "c")).getTokens()).containsExactly("c");
    assertThat(merger.passed()).containsExactly("a", "b", "c");
  }

  @Test
  void shouldPassOnNothingFromAnAttemptTheLogFenced() {
    merger.fromWorker(chunk(1, "gpu-1", 0, "a", "b"));
    merger.fromWorker(chunk(2, "gpu-2", 2, "c"));

    assertThat(merger.fromWorker(chunk(1, "gpu-1", 2, "x"))).isNull();
    assertThat(merger.fromWorker(chunk(2, "gpu-3", 3, "y"))).isNull();
    assertThat(merger.fromWorker(chunk(3, "gpu-4", 1, "z"))).isNull();
    assertThat(merger.passed()).containsExactly("a", "b", "c");
  }

  @Test
  void shouldPassOnTheStalledAttemptsTokensUpToTheRoutersEndInTheLogAndNoneAfter() {
    merger.fromWorker(chunk(1, "gpu-1", 0, "a", "b"));
    final TokenChunk end = chunk(2, "gpu-1", 1);
    end.setLast(true);

    merger.fromWorker(chunk(1, "gpu-1", 2, "c"));
    assertThat(merger.fromWorker(end)).isNull();
    assertThat(merger.fromWorker(chunk(1, "gpu-1", 3, "d"))).isNull();
    merger.fromDurable(durable(0, true, "a", "b", "c"));

    assertThat(merger.passed()).containsExactly("a", "b", "c");
    assertThat(merger.divergences()).isZero();
  }

  @Test
  void shouldSayHowTheAttemptWasRoutedOnWhatItPassesOnFromAWorker() {
    final TokenChunk fallback = chunk(1, "gpu-2", 0, "a");
    fallback.setRouting(RoutingOutcome.FALLBACK);

    final ResponseChunk passed = merger.fromWorker(fallback);

    assertThat(passed.getOutcome()).isEqualTo(RoutingOutcome.FALLBACK);
    assertThat(passed.getInstanceId()).isEqualTo("gpu-2");
  }

  @Test
  void shouldCountADurableTokenThatDiffersFromTheOnePassedOn() {
    merger.fromWorker(chunk(1, "gpu-1", 0, "a", "b"));

    merger.fromDurable(durable(0, true, "a", "x"));

    assertThat(merger.divergences()).isEqualTo(1);
  }

  private static TokenChunk chunk(final int epoch, final String instance, final int start, final String... tokens) {
    return TokenChunk.newBuilder().setSequenceId("s").setEpoch(epoch).setInstanceId(instance).setStartIndex(start)
        .setTokens(List.of(tokens)).setEmittedAtMs(0).build();
  }

  private static ResponseChunk durable(final int start, final boolean last, final String... tokens) {
    return ResponseChunk.newBuilder().setSequenceId("s").setStartIndex(start).setTokens(List.of(tokens))
        .setLast(last).setOutcome(last ? RoutingOutcome.DIRECT : null).setEmittedAtMs(0).build();
  }
}
