package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A sequence cancelled while it waits for a batch slot leaves the queue at once, as an aborted request does. */
@Timeout(30)
class QueuedCancelTest {

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final SimulatedGpu gpu = new SimulatedGpu("gpu-0", "zone-a", "sim-8b",
      new GpuProfile(1, 20, 0.05, 8, 0.5, Duration.ofSeconds(8), 4), true, clock);
  private final ExecutorService threads = Executors.newFixedThreadPool(2);

  @AfterEach
  void shutDown() {
    threads.shutdownNow();
    gpu.close();
  }

  @Test
  void shouldLeaveTheQueueWithoutPrefillWhenCancelledWhileWaiting() throws Exception {
    // Given the only slot held by a running sequence, and a second one queued behind it
    final CountDownLatch running = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final RecordingSink first = new RecordingSink(clock, chunk -> {
      running.countDown();
      await(release);
    });
    final Future<String> holder = threads.submit(() -> gpu.generate(Tasks.task("s-1", 100, 16), first));
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    final RecordingSink queued = new RecordingSink(clock);
    final Future<String> waiter = threads.submit(() -> gpu.generate(Tasks.task("s-2", 100, 16), queued));
    awaitQueue(1);

    // When the queued one is cancelled
    queued.cancel();

    // Then it returns without having started, and the queue is empty while the slot is still held
    assertThat(waiter.get(5, TimeUnit.SECONDS)).isEqualTo("abort");
    assertThat(queued.wasStarted()).isFalse();
    assertThat(queued.chunkCount()).isZero();
    assertThat(gpu.sample(clock.millis()).orElseThrow().getQueueLength()).isZero();
    release.countDown();
    assertThat(holder.get(5, TimeUnit.SECONDS)).isIn("stop", "length");
  }

  private void awaitQueue(final int length) {
    Awaitility.await().atMost(Duration.ofSeconds(5)).pollInterval(5, TimeUnit.MILLISECONDS)
        .until(() -> gpu.sample(clock.millis()).orElseThrow().getQueueLength() == length);
  }

  private static void await(final CountDownLatch latch) {
    try {
      latch.await();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
