package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.InstanceTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class GpuLoadTelemetryTest {

  private static final long START_MS = 1_700_000_000_000L;
  private static final GpuProfile PROFILE = GpuProfile.standard();
  private static final long WEIGHTS_BYTES = 16L << 30;

  private final ManualClock clock = new ManualClock(START_MS);

  @Test
  void shouldReportAnIdleWarmInstanceWithLittleFragmentationAndAboutPointOnePercentRetransmits() {
    final InstanceTelemetry idle = sample(new SimulatedGpu("gpu-0", "zone-a", "sim-8b", PROFILE, true, clock));

    assertThat(idle.getVramFragmentation()).isLessThan(0.1);
    assertThat(idle.getVramUsedBytes()).isEqualTo(WEIGHTS_BYTES);
    assertThat(idle.getTcpRetransmitRate()).isBetween(0.0005, 0.002);
    assertThat(idle.getKvWarmupLevel()).isEqualTo(1.0);
    assertThat(idle.getAllocationErrors()).isZero();
    assertThat(idle.getRunningRequests()).isZero();
    assertThat(idle.getBatchSlots()).as("its batch, said before any queue").isEqualTo(PROFILE.maxBatch());
  }

  @Test
  void shouldGrowKvUsageAndFragmentationWithTheBatchButStayWellBelow70PercentAtAFullBatch() throws Exception {
    final InstanceTelemetry quarter = sampleWhileRunning(PROFILE.maxBatch() / 4, 1800);
    final InstanceTelemetry full = sampleWhileRunning(PROFILE.maxBatch(), 1800);

    assertThat(quarter.getRunningRequests()).isEqualTo(4);
    assertThat(full.getRunningRequests()).isEqualTo(16);
    // Every running sequence holds its prompt and its first token (its first chunk) in the KV cache.
    assertThat(quarter.getVramUsedBytes()).isEqualTo(WEIGHTS_BYTES + 4L * (1800 + 1) * (128L << 10));
    assertThat(full.getVramUsedBytes()).isEqualTo(WEIGHTS_BYTES + 16L * (1800 + 1) * (128L << 10));
    assertThat(quarter.getVramFragmentation()).isGreaterThan(0.1);
    assertThat(full.getVramFragmentation()).isGreaterThan(quarter.getVramFragmentation() + 0.2).isLessThan(0.6);
    assertThat(full.getGpuUtilization()).isGreaterThan(quarter.getGpuUtilization());
  }

  @Test
  void shouldReportTgsvAndDecodeSpeedFromTheIntervalsTheSequenceHadAndForgetThemWhenIdle() throws Exception {
    final SimulatedGpu gpu = new SimulatedGpu("gpu-0", "zone-a", "sim-8b", PROFILE, true, clock);
    gpu.generate(Tasks.task("s-1", 100, 64), new RecordingSink(clock));

    final InstanceTelemetry afterRun = sample(gpu);
    clock.advance(Duration.ofSeconds(3));
    final InstanceTelemetry idle = sample(gpu);

    // A lone sequence decodes one token every 8 + 0.5 ms, without jitter.
    assertThat(afterRun.getDecodeTokensPerS()).isCloseTo(1000 / 8.5, within(0.5));
    assertThat(afterRun.getTokenIntervalStddevMs()).isLessThan(0.5);
    assertThat(idle.getDecodeTokensPerS()).isZero();
    assertThat(idle.getTokenIntervalStddevMs()).isZero();
  }

  @Test
  void shouldHaveRoomOnlyWhileWarmAndHealthyWithNothingQueuedAndABatchSlotFree() throws Exception {
    final SimulatedGpu gpu = new SimulatedGpu("gpu-0", "zone-a", "sim-8b", PROFILE, true, clock);
    assertThat(gpu.hasRoom()).isTrue();
    gpu.oom();
    assertThat(gpu.hasRoom()).as("out of memory").isFalse();
    gpu.recover();
    gpu.loseNetwork(0.15);
    assertThat(gpu.hasRoom()).as("losing packets").isFalse();
    gpu.restoreNetwork();
    gpu.stall();
    assertThat(gpu.hasRoom()).as("stalled").isFalse();
    gpu.resume();
    assertThat(gpu.hasRoom()).as("every fault ended").isTrue();

    assertThat(new SimulatedGpu("gpu-1", "zone-a", "sim-8b", PROFILE, false, clock).hasRoom()).as("cold").isFalse();
    assertThat(whileRunning(PROFILE.maxBatch() - 1, 100, SimulatedGpu::hasRoom)).as("a slot free").isTrue();
    assertThat(whileRunning(PROFILE.maxBatch(), 100, SimulatedGpu::hasRoom)).as("the batch full").isFalse();
  }

  /** Runs {@code sequences} sequences up to their first chunk, samples the GPU, then lets them finish. */
  private InstanceTelemetry sampleWhileRunning(final int sequences, final int inputTokens) throws Exception {
    return whileRunning(sequences, inputTokens, this::sample);
  }

  /** Runs {@code sequences} sequences up to their first chunk, looks at the GPU, then lets them finish. */
  private <T> T whileRunning(final int sequences, final int inputTokens, final Function<SimulatedGpu, T> look)
      throws Exception {
    final SimulatedGpu gpu = new SimulatedGpu("gpu-0", "zone-a", "sim-8b", PROFILE, true, clock);
    final CountDownLatch arrived = new CountDownLatch(sequences);
    final CountDownLatch release = new CountDownLatch(1);
    final ExecutorService threads = Executors.newFixedThreadPool(sequences);
    try {
      final List<Future<String>> runs = new ArrayList<>();
      for (int i = 0; i < sequences; i++) {
        final RecordingSink sink = new RecordingSink(clock, chunk -> holdFirst(chunk, arrived, release));
        final int n = i;
        runs.add(threads.submit(() -> gpu.generate(Tasks.task("s-" + n, inputTokens, 64), sink)));
      }
      assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
      final T seen = look.apply(gpu);
      release.countDown();
      for (final Future<String> run : runs) {
        assertThat(run.get(10, TimeUnit.SECONDS)).isIn("stop", "length");
      }
      return seen;
    } finally {
      threads.shutdownNow();
    }
  }

  private static void holdFirst(final int chunk, final CountDownLatch arrived, final CountDownLatch release) {
    if (chunk != 1) {
      return;
    }
    arrived.countDown();
    try {
      release.await();
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private InstanceTelemetry sample(final SimulatedGpu gpu) {
    return gpu.sample(clock.millis()).orElseThrow();
  }
}
