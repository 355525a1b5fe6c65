package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceTelemetry;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class OomFaultTest {

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final SimulatedGpu gpu = new SimulatedGpu("gpu-3", "zone-a", "sim-8b", GpuProfile.standard(), true, clock);

  @Test
  void shouldRunFragmentationAbove92PercentWithinASecondAndKeepItThere() {
    final long faultMs = clock.millis();

    gpu.oom();

    // Given the fault at faultMs, the samples at faultMs + x:
    assertThat(sampleAt(faultMs).getVramFragmentation()).as("+0 ms: not yet").isLessThan(0.1);
    assertThat(sampleAt(faultMs + 400).getVramFragmentation()).as("+400 ms: climbing").isBetween(0.3, 0.92);
    assertThat(sampleAt(faultMs + 1_000).getVramFragmentation()).as("+1 s").isGreaterThan(0.92);
    assertThat(sampleAt(faultMs + 30_000).getVramFragmentation()).as("+30 s: stays").isGreaterThan(0.98);
  }

  @Test
  void shouldReportAllocationErrorsInEverySampleUntilRecovered() {
    gpu.oom();

    assertThat(sampleAt(clock.millis()).getAllocationErrors()).isPositive();
    assertThat(sampleAt(clock.millis() + 50).getAllocationErrors()).isPositive();

    gpu.recover();

    final InstanceTelemetry recovered = sampleAt(clock.millis() + 100);
    assertThat(recovered.getAllocationErrors()).isZero();
    assertThat(recovered.getVramFragmentation()).isLessThan(0.1);
  }

  @Test
  void shouldFailNewAdmissionsWhileTheRunningSequenceGoesOn() throws Exception {
    final DispatchTask running = Tasks.task("running", 100, 64);
    final DispatchTask newcomer = Tasks.task("newcomer", 100, 64);
    final RecordingSink newcomerSink = new RecordingSink(clock);
    final AtomicReference<Throwable> admission = new AtomicReference<>();
    // When the running sequence has sent its first chunk, the KV cache runs out and a new sequence arrives.
    final RecordingSink runningSink = new RecordingSink(clock, chunk -> {
      if (chunk == 1) {
        gpu.oom();
        admission.set(catchThrowable(() -> gpu.generate(newcomer, newcomerSink)));
      }
    });

    gpu.generate(running, runningSink);

    assertThat(admission.get()).isInstanceOf(GenerationFailedException.class).hasMessageContaining("out of memory");
    assertThat(newcomerSink.wasStarted()).isFalse();
    assertThat(newcomerSink.chunkCount()).isZero();
    assertThat(runningSink.text()).isEqualTo(Tasks.fullText(running));
    // One failed admission, plus the allocator's own failures while memory is exhausted.
    assertThat(sampleAt(clock.millis()).getAllocationErrors()).isEqualTo(2);
  }

  @Test
  void shouldAdmitNewSequencesAgainOnceRecovered() throws Exception {
    final DispatchTask task = Tasks.task("s-1", 100, 32);
    gpu.oom();
    assertThatThrownBy(() -> gpu.generate(task, new RecordingSink(clock)))
        .isInstanceOf(GenerationFailedException.class);

    gpu.recover();
    final RecordingSink sink = new RecordingSink(clock);
    gpu.generate(task, sink);

    assertThat(sink.text()).isEqualTo(Tasks.fullText(task));
  }

  private InstanceTelemetry sampleAt(final long nowMs) {
    return gpu.sample(nowMs).orElseThrow();
  }
}
