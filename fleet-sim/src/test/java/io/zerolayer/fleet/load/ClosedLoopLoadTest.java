package io.zerolayer.fleet.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The load runs on a manual clock; each step says the load's time. */
class ClosedLoopLoadTest {

  private static final Duration STEP = Duration.ofSeconds(10);
  private static final Duration THINK = Duration.ofSeconds(1);

  private final ManualScheduler clock = new ManualScheduler();
  private final FakeSender sender = new FakeSender(clock);
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

  @Test
  void shouldStepTheUsersUpAtTheStartOfEachStep() {
    final ClosedLoopLoad load = load(List.of(2, 4, 8), Duration.ofMinutes(5));
    load.start();

    clock.runDue(); // t = 0
    assertThat(load.users()).isEqualTo(2);
    assertThat(sender.waiting()).containsExactly("run-0", "run-1");

    clock.advance(STEP.minusMillis(1)); // t = 9.999 s: unanswered users send nothing more
    assertThat(sender.sent()).hasSize(2);

    clock.advance(Duration.ofMillis(1)); // t = 10 s
    assertThat(load.users()).isEqualTo(4);
    assertThat(sender.waiting()).containsExactly("run-0", "run-1", "run-2", "run-3");

    clock.advance(STEP); // t = 20 s
    assertThat(load.users()).isEqualTo(8);
    assertThat(sender.waiting()).hasSize(8);
  }

  @Test
  void shouldRecordEachAnsweredRequestAndSendTheNextAfterThinking() {
    final ClosedLoopLoad load = load(List.of(2), Duration.ofMinutes(5));
    load.start();
    clock.runDue(); // t = 0: run-0 and run-1 sent

    clock.advance(Duration.ofMillis(250)); // t = 250 ms
    sender.answer("run-0", 12, "gpu-3");

    final RequestOutcome outcome = load.outcomes().get(0);
    assertThat(outcome.sequenceId()).isEqualTo("run-0");
    assertThat(outcome.status()).isEqualTo(Status.COMPLETED);
    assertThat(outcome.routing()).isEqualTo(RoutingOutcome.DIRECT);
    assertThat(outcome.latency()).isEqualTo(Duration.ofMillis(250));
    assertThat(outcome.outputTokens()).isEqualTo(12);
    assertThat(outcome.instances()).containsExactly("gpu-3");
    assertThat(outcome.concurrency()).isEqualTo(2);
    assertThat(outcome.promptTokens()).isEqualTo(3);

    clock.advance(THINK.minusMillis(1)); // t = 1.249 s: still thinking
    assertThat(sender.sent()).hasSize(2);
    clock.advance(Duration.ofMillis(1)); // t = 1.25 s
    assertThat(sender.sent()).containsExactly("run-0", "run-1", "run-2");
  }

  @Test
  void shouldCountARequestWithoutAFinalChunkWithinTheTimeoutAsAnError() {
    final ClosedLoopLoad load = load(List.of(1), Duration.ofSeconds(5));
    load.start();
    clock.runDue(); // t = 0: run-0 sent, never answered

    clock.advance(Duration.ofMillis(4_999)); // t = 4.999 s
    assertThat(load.outcomes()).isEmpty();

    clock.advance(Duration.ofMillis(1)); // t = 5 s: the user gives up
    final RequestOutcome outcome = load.outcomes().get(0);
    assertThat(outcome.status()).isEqualTo(Status.TIMED_OUT);
    assertThat(outcome.isError()).isTrue();
    assertThat(outcome.latency()).isEqualTo(Duration.ofSeconds(5));
    assertThat(outcome.chunks()).isEmpty();
    assertThat(sender.cancelled("run-0")).isTrue();

    clock.advance(THINK); // t = 6 s: and carries on
    assertThat(sender.waiting()).containsExactly("run-1");
  }

  @Test
  void shouldWaitTheRetryAfterOfAThrottledRequestBeforeSendingAgain() {
    final ClosedLoopLoad load = load(List.of(1), Duration.ofMinutes(5));
    load.start();
    clock.runDue(); // t = 0

    sender.throttle("run-0", Duration.ofSeconds(3));
    assertThat(load.outcomes().get(0).isThrottled()).isTrue();
    assertThat(load.outcomes().get(0).isError()).isFalse();

    clock.advance(Duration.ofMillis(2_999)); // t = 2.999 s: longer than thinking, shorter than the retry-after
    assertThat(sender.sent()).hasSize(1);
    clock.advance(Duration.ofMillis(1)); // t = 3 s
    assertThat(sender.sent()).hasSize(2);
  }

  @Test
  void shouldStopSendingAfterTheLastStepAndFinishWhenTheLastRequestHasItsOutcome() {
    final ClosedLoopLoad load = load(List.of(1, 2), Duration.ofMinutes(5));
    final CompletableFuture<List<RequestOutcome>> finished = load.start();
    clock.runDue(); // t = 0

    clock.advance(STEP.multipliedBy(2)); // t = 20 s: the last step is over, two requests still out
    assertThat(finished).isNotDone();
    assertThat(sender.waiting()).hasSize(2);

    sender.answerAll(4);
    assertThat(finished).isCompleted();
    assertThat(finished.join()).extracting(RequestOutcome::sequenceId).containsExactlyInAnyOrder("run-0", "run-1");

    clock.advance(Duration.ofMinutes(5)); // t = 320 s: past every timer the load set
    assertThat(sender.sent()).hasSize(2);
    assertThat(clock.pending()).isZero();
  }

  @Test
  void shouldPrintTheLoadAndItsWorkloadWhenItStarts() {
    load(List.of(10, 20, 40), Duration.ofSeconds(3)).start();

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("[10, 20, 40]", "every 10.0 s", "Fixed test workload");
  }

  @Test
  void shouldRefuseUsersSteppedDown() {
    assertThatThrownBy(() -> new ClosedLoopLoad.Settings("run", List.of(4, 2), STEP, THINK, STEP))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step up");
  }

  @Test
  @Timeout(30)
  void shouldRunOnTimerThreadsWithAnswersFromAnotherThread() throws Exception {
    final RequestSender answering = (id, spec) -> CompletableFuture.supplyAsync(() -> new Reply(
        List.of(new ChunkArrival(System.nanoTime(), 2, "gpu-0", 1)), RoutingOutcome.DIRECT, "stop", null, null));
    try (ThreadScheduler threads = new ThreadScheduler(2)) {
      final ClosedLoopLoad load = new ClosedLoopLoad(new FixedSource(), answering, threads,
          new ClosedLoopLoad.Settings("threads", List.of(2, 4), Duration.ofMillis(100), Duration.ofMillis(1),
              Duration.ofSeconds(5)), new PrintStream(printed, true, StandardCharsets.UTF_8));

      final List<RequestOutcome> outcomes = load.start().get(20, TimeUnit.SECONDS);

      assertThat(outcomes).isNotEmpty().allSatisfy(o -> assertThat(o.status()).isEqualTo(Status.COMPLETED));
      assertThat(outcomes).extracting(RequestOutcome::sequenceId).doesNotHaveDuplicates();
      assertThat(outcomes).extracting(RequestOutcome::concurrency).contains(2, 4);
    }
  }

  private ClosedLoopLoad load(final List<Integer> users, final Duration timeout) {
    return new ClosedLoopLoad(new FixedSource(), sender, clock,
        new ClosedLoopLoad.Settings("run", users, STEP, THINK, timeout),
        new PrintStream(printed, true, StandardCharsets.UTF_8));
  }
}
