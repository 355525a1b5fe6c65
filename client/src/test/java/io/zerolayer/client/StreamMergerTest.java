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
  void shouldEndFromTheWorkersLogWhenTheEngineFinishedAServedAttempt() {
    merger.fromWorker(chunk(2, "gpu-2", 0, "a", "b"));
    final TokenChunk finish = chunk(2, "gpu-2", 2, "c");
    finish.setLast(true);
    finish.setFinishReason("length");
    finish.setRouting(RoutingOutcome.CUTOVER);
    finish.setInputTokens(7);

    final ResponseChunk end = merger.fromWorker(finish);

    assertThat(end.getLast()).isTrue();
    assertThat(end.getTokens()).containsExactly("c");
    assertThat(end.getStartIndex()).isEqualTo(2);
    assertThat(end.getFinishReason()).isEqualTo("length");
    assertThat(end.getOutcome()).isEqualTo(RoutingOutcome.CUTOVER);
    assertThat(end.getInstanceId()).isEqualTo("gpu-2");
    assertThat(end.getEpoch()).isEqualTo(2);
    assertThat(end.getInputTokens()).isEqualTo(7);
    assertThat(end.getOutputTokens()).isEqualTo(3);
    assertThat(merger.endedFromWorkers()).isTrue();
    merger.fromDurable(durable(0, true, "a", "b", "c"));
    assertThat(merger.passed()).containsExactly("a", "b", "c");
    assertThat(merger.divergences()).isZero();
  }

  @Test
  void shouldLeaveAnEndThatIsNotAServedAttemptsToTheDurableStream() {
    merger.fromWorker(chunk(1, "gpu-1", 0, "a"));
    final TokenChunk throttled = chunk(2, "gpu-1", 1);
    throttled.setLast(true);
    throttled.setRouting(RoutingOutcome.THROTTLED);
    final TokenChunk failed = chunk(1, "gpu-1", 1);
    failed.setLast(true);
    failed.setRouting(RoutingOutcome.DIRECT);
    failed.setFailure("engine error");

    final StreamMerger failing = new StreamMerger("s");
    failing.fromWorker(chunk(1, "gpu-1", 0, "a"));

    assertThat(failing.fromWorker(failed)).isNull();
    assertThat(failing.endedFromWorkers()).isFalse();
    assertThat(merger.fromWorker(throttled)).isNull();
    assertThat(merger.endedFromWorkers()).isFalse();
    assertThat(merger.fromDurable(durable(0, true, "a")).getLast()).isTrue();
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
