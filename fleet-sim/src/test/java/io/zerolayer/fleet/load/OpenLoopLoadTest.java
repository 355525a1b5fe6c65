package io.zerolayer.fleet.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The load runs on a manual clock; each step says the load's time. */
class OpenLoopLoadTest {

  private static final Path TRACE = Path.of("..", "..", "shared", "traces", "azure-llm-2023-conv.csv");

  private final ManualScheduler clock = new ManualScheduler();
  private final FakeSender sender = new FakeSender(clock);
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

  @Test
  void shouldSendEachRequestAtItsTimeWhetherOrNotEarlierOnesWereAnswered() {
    final long start = clock.nanoTime();
    final OpenLoopLoad load = load(List.of(Duration.ZERO, Duration.ofMillis(100), Duration.ofMillis(100),
        Duration.ofSeconds(2)), Duration.ofMinutes(1));
    load.start();

    clock.advance(Duration.ofMillis(99)); // t = 99 ms
    assertThat(sender.sent()).containsExactly("trace-0");
    clock.advance(Duration.ofMillis(1)); // t = 100 ms: nothing answered, two more due
    assertThat(sender.sent()).containsExactly("trace-0", "trace-1", "trace-2");
    clock.advance(Duration.ofMillis(1_900)); // t = 2 s
    assertThat(sender.waiting()).hasSize(4);
    assertThat(load.inFlight()).isEqualTo(4);

    assertThat(sender.sentAtNanos()).containsExactly(start, start + 100_000_000L, start + 100_000_000L,
        start + 2_000_000_000L);
  }

  @Test
  void shouldFinishWhenEveryRequestWasSentAndHasItsOutcome() {
    final OpenLoopLoad load = load(List.of(Duration.ZERO, Duration.ofSeconds(1)), Duration.ofSeconds(3));
    final CompletableFuture<List<RequestOutcome>> finished = load.start();
    clock.runDue(); // t = 0
    sender.answer("trace-0", 8, "gpu-1");

    clock.advance(Duration.ofSeconds(1)); // t = 1 s: the second request is out
    assertThat(finished).isNotDone();
    clock.advance(Duration.ofSeconds(3)); // t = 4 s: it timed out

    assertThat(finished).isCompleted();
    assertThat(finished.join()).extracting(RequestOutcome::sequenceId, RequestOutcome::status,
        RequestOutcome::concurrency).containsExactly(
            tuple("trace-0", Status.COMPLETED, 1),
            tuple("trace-1", Status.TIMED_OUT, 1));
  }

  @Test
  void shouldReplayTheTraceAtItsScaledTimesAndPrintItsAttribution() throws IOException {
    final TraceReplay trace = TraceReplay.read(TRACE, new TraceReplay.Settings(1000.0, 3, new TokenRange(1, 64),
        new TokenRange(1, 32), 1), new PromptWriter());
    final long start = clock.nanoTime();
    final OpenLoopLoad load = OpenLoopLoad.replay(trace, sender, clock, new OpenLoopLoad.Settings("trace",
        Duration.ofSeconds(5)), new PrintStream(printed, true, StandardCharsets.UTF_8));

    load.start();
    clock.advance(Duration.ofMillis(5)); // t = 5 ms: the trace's first 4.71 s, 1000 times faster

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("Azure LLM inference trace 2023", "CC-BY 4.0", "3 requests");
    assertThat(sender.sentAtNanos()).containsExactly(start, start + 4_314_579L, start + 4_541_877L);
  }

  private OpenLoopLoad load(final List<Duration> schedule, final Duration timeout) {
    return new OpenLoopLoad(new FixedSource(), schedule, sender, clock, new OpenLoopLoad.Settings("trace", timeout),
        new PrintStream(printed, true, StandardCharsets.UTF_8));
  }
}
