package io.zerolayer.fleet.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class RequestRunnerTest {

  private final ManualScheduler clock = new ManualScheduler();
  private final RequestSpec spec = new FixedSource().spec(5);

  @Test
  void shouldTakeTheStatusFromTheFinalChunk() {
    assertThat(statusOf(RoutingOutcome.FALLBACK, "stop")).isEqualTo(Status.COMPLETED);
    assertThat(statusOf(RoutingOutcome.CUTOVER, "length")).isEqualTo(Status.COMPLETED);
    assertThat(statusOf(RoutingOutcome.REJECTED, "rejected")).isEqualTo(Status.REJECTED);
    assertThat(statusOf(RoutingOutcome.THROTTLED, "throttled")).isEqualTo(Status.THROTTLED);
    assertThat(statusOf(RoutingOutcome.DIRECT, "error")).isEqualTo(Status.FAILED);
  }

  @Test
  void shouldCountAFailedStreamAsFailedWithItsCause() {
    final RequestOutcome outcome = runner((id, s) -> CompletableFuture.failedFuture(
        new IllegalStateException("broke order"))).run(5, spec, 1).join();

    assertThat(outcome.status()).isEqualTo(Status.FAILED);
    assertThat(outcome.reason()).contains("broke order");
    assertThat(outcome.isError()).isTrue();
  }

  @Test
  void shouldCountARequestThatCouldNotBeSentAsFailed() {
    final RequestOutcome outcome = runner((id, s) -> {
      throw new IllegalStateException("broker gone");
    }).run(5, spec, 1).join();

    assertThat(outcome.sequenceId()).isEqualTo("unit-5");
    assertThat(outcome.status()).isEqualTo(Status.FAILED);
    assertThat(outcome.reason()).contains("broker gone");
  }

  @Test
  void shouldKeepTheFirstOutcomeWhenTheAnswerComesAfterTheTimeout() {
    final CompletableFuture<Reply> late = new CompletableFuture<>();
    final CompletableFuture<RequestOutcome> outcome = runner((id, s) -> late).run(5, spec, 1);

    clock.advance(Duration.ofSeconds(2)); // t = 2 s: the timeout
    late.complete(reply(RoutingOutcome.DIRECT, "stop"));

    assertThat(outcome.join().status()).isEqualTo(Status.TIMED_OUT);
    assertThat(late).isCancelled();
  }

  private Status statusOf(final RoutingOutcome routing, final String finishReason) {
    return runner((id, s) -> CompletableFuture.completedFuture(reply(routing, finishReason))).run(1, spec, 1).join()
        .status();
  }

  private Reply reply(final RoutingOutcome routing, final String finishReason) {
    return new Reply(List.of(new ChunkArrival(clock.nanoTime(), 0, null, 1)), routing, finishReason, null, null);
  }

  private RequestRunner runner(final RequestSender sender) {
    return new RequestRunner(sender, clock, "unit", Duration.ofSeconds(2));
  }
}
