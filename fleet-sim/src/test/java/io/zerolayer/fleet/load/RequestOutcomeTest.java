package io.zerolayer.fleet.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestOutcomeTest {

  private static final long MS = 1_000_000L;

  @Test
  void shouldGiveEachTokenItsChunksArrivalTimeAndTheStddevOfTheIntervals() {
    // tokens at 10, 10, 30, 60 ms: intervals 0, 20, 30 ms, mean 16.67, population stddev 12.47
    final RequestOutcome outcome = completed(List.of(new ChunkArrival(10 * MS, 2, "gpu-1", 1),
        new ChunkArrival(30 * MS, 1, "gpu-1", 1), new ChunkArrival(60 * MS, 1, "gpu-1", 1)));

    assertThat(outcome.tokenArrivalNanos()).containsExactly(10 * MS, 10 * MS, 30 * MS, 60 * MS);
    assertThat(outcome.tokenIntervalStddevMs().getAsDouble()).isCloseTo(12.472, within(0.001));
    assertThat(outcome.timeToFirstToken()).contains(Duration.ofMillis(10));
    assertThat(outcome.outputTokens()).isEqualTo(4);
  }

  @Test
  void shouldNameEveryInstanceThatServedTheStreamInOrder() {
    final RequestOutcome outcome = completed(List.of(new ChunkArrival(10 * MS, 4, "gpu-1", 1),
        new ChunkArrival(900 * MS, 4, "gpu-2", 2), new ChunkArrival(950 * MS, 0, null, 2)));

    assertThat(outcome.instances()).containsExactly("gpu-1", "gpu-2");
  }

  @Test
  void shouldHaveNoFirstTokenNorIntervalsWhenThrottled() {
    final RequestOutcome outcome = new RequestOutcome("s", PromptBand.SHORT, 10, 16, 1, Status.THROTTLED,
        RoutingOutcome.THROTTLED, "over rate", 400L, 0, 2 * MS, List.of(new ChunkArrival(2 * MS, 0, null, 0)));

    assertThat(outcome.timeToFirstToken()).isEmpty();
    assertThat(outcome.tokenIntervalStddevMs()).isEmpty();
    assertThat(outcome.isThrottled()).isTrue();
    assertThat(outcome.isError()).isFalse();
    assertThat(outcome.latency()).isEqualTo(Duration.ofMillis(2));
  }

  private static RequestOutcome completed(final List<ChunkArrival> chunks) {
    return new RequestOutcome("s", PromptBand.SHORT, 10, 16, 1, Status.COMPLETED, RoutingOutcome.DIRECT, null, null,
        0, chunks.get(chunks.size() - 1).atNanos(), chunks);
  }
}
