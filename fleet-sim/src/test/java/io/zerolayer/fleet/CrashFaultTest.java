package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zerolayer.contract.avro.DispatchTask;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class CrashFaultTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final SimulatedGpu gpu = new SimulatedGpu("gpu-2", "zone-a", "sim-8b", GpuProfile.standard(), true, clock);

  @AfterEach
  void shutDown() {
    gpu.close();
  }

  @Test
  void shouldPublishNoTelemetryOnceCrashedWhateverElseHappensUntilAColdRestart() {
    assertThat(gpu.sample(clock.millis())).isPresent();

    gpu.crash();
    gpu.resume();
    gpu.recover();

    assertThat(gpu.sample(clock.millis())).isEmpty();
    gpu.coldRestart();
    assertThat(gpu.sample(clock.millis())).hasValueSatisfying(sample -> assertThat(sample.getKvWarmupLevel()).isZero());
  }

  @Test
  void shouldSendNoMoreTokensAndHearNoCancelOnceCrashedAndFailTheSequenceOnAColdRestart() {
    final RecordingSink sink = new RecordingSink(clock, chunk -> {
      if (chunk == 1) {
        gpu.crash();
      }
    });
    final CompletableFuture<String> run = generate(Tasks.task("s-1", 100, 64), sink);

    awaitClockPast(Duration.ofSeconds(10));
    sink.cancel();
    awaitClockPast(Duration.ofSeconds(10));

    assertThat(run).isNotDone();
    assertThat(sink.chunkCount()).isEqualTo(1);
    gpu.coldRestart();
    assertThat(run).failsWithin(WAIT).withThrowableThat().havingRootCause()
        .isInstanceOf(GenerationFailedException.class).withMessageContaining("restarted");
    assertThat(sink.chunkCount()).isEqualTo(1);
  }

  @Test
  void shouldKeepASequenceArrivingAfterTheCrashSilentEvenAboutWaiting() {
    gpu.crash();
    final RecordingSink sink = new RecordingSink(clock);

    final CompletableFuture<String> run = generate(Tasks.task("s-1", 100, 64), sink);

    // Once the engine says it started, the worker sends no "still queued" heartbeat for it.
    await().atMost(WAIT).until(sink::wasStarted);
    awaitClockPast(Duration.ofSeconds(10));
    assertThat(run).isNotDone();
    assertThat(sink.chunkCount()).isZero();
    gpu.close();
    assertThat(run).failsWithin(WAIT);
  }

  private CompletableFuture<String> generate(final DispatchTask task, final RecordingSink sink) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return gpu.generate(task, sink);
      } catch (final Exception e) {
        throw new CompletionException(e);
      }
    });
  }

  /** Waits until the held sequence has waited out {@code duration} more of the GPU's time. */
  private void awaitClockPast(final Duration duration) {
    final long target = clock.millis() + duration.toMillis();
    await().atMost(WAIT).pollInterval(1, TimeUnit.MILLISECONDS).until(() -> clock.millis() >= target);
  }
}
