package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.score.ScoreRows;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ColdRestartFaultTest {

  private static final long START_MS = 1_700_000_000_000L;

  private final ManualClock clock = new ManualClock(START_MS);
  private final SimulatedGpu gpu = new SimulatedGpu("gpu-5", "zone-a", "sim-8b", GpuProfile.standard(), true, clock);

  @Test
  void shouldDropToColdAndStayColdUntilPreWarmedThenLoadOverEightSeconds() {
    assertThat(sampleAt(clock.millis()).getKvWarmupLevel()).isEqualTo(1.0);
    final long restartMs = clock.millis();

    gpu.coldRestart();

    final InstanceTelemetry cold = sampleAt(restartMs);
    assertThat(cold.getKvWarmupLevel()).isZero();
    assertThat(cold.getKvCacheHitRate()).isZero();
    assertThat(sampleAt(restartMs + 20_000).getKvWarmupLevel()).isZero();
    clock.advance(Duration.ofSeconds(20));
    gpu.onCommand(preWarm());
    final long askedMs = clock.millis();
    assertThat(sampleAt(askedMs + 4_000).getKvWarmupLevel()).isCloseTo(ScoreRows.WARM_LEVEL / 2, within(0.01));
    // Warm, as routers read it, when the weights are in; then the KV cache fills.
    assertThat(sampleAt(askedMs + 7_900).getKvWarmupLevel()).isLessThan(ScoreRows.WARM_LEVEL);
    assertThat(sampleAt(askedMs + 8_000).getKvWarmupLevel()).isEqualTo(ScoreRows.WARM_LEVEL);
    assertThat(sampleAt(askedMs + 9_000).getKvWarmupLevel()).isEqualTo(1.0);
  }

  @Test
  void shouldSayItIsLoadingFromTheRestartUntilTheWeightsAreIn() {
    assertThat(gpu.loading()).isFalse();

    gpu.coldRestart();

    assertThat(gpu.loading()).as("cold, no load asked for yet").isTrue();
    gpu.onCommand(preWarm());
    clock.advance(Duration.ofMillis(7_900));
    assertThat(gpu.loading()).isTrue();
    clock.advance(Duration.ofMillis(100));
    assertThat(gpu.loading()).isFalse();
  }

  @Test
  void shouldFailTheSequenceInFlightWhenTheInstanceRestarts() {
    final RecordingSink sink = new RecordingSink(clock, chunk -> {
      if (chunk == 1) {
        gpu.coldRestart();
      }
    });

    assertThatThrownBy(() -> gpu.generate(Tasks.task("s-1", 100, 64), sink))
        .isInstanceOf(GenerationFailedException.class)
        .hasMessageContaining("restarted");
    assertThat(sink.chunkCount()).isEqualTo(1);
  }

  @Test
  void shouldHoldTheFirstRequestOfAColdInstanceUntilTheWeightLoadItStartsIsDone() throws Exception {
    final DispatchTask task = Tasks.task("s-1", 100, 64);
    final ManualClock coldClock = new ManualClock(START_MS);
    final SimulatedGpu cold = new SimulatedGpu("gpu-6", "zone-a", "sim-8b", GpuProfile.standard(), false, coldClock);
    final RecordingSink warmSink = new RecordingSink(clock);
    final RecordingSink coldSink = new RecordingSink(coldClock);
    final long warmStart = clock.nanoTime();
    final long coldStart = coldClock.nanoTime();

    gpu.generate(task, warmSink);
    cold.generate(task, coldSink);

    assertThat(coldSink.text()).isEqualTo(warmSink.text());
    final double warmFirstMs = (warmSink.chunkNanos().get(0) - warmStart) / 1e6;
    final double coldFirstMs = (coldSink.chunkNanos().get(0) - coldStart) / 1e6;
    assertThat(coldFirstMs - warmFirstMs).isBetween(8_000.0, 8_100.0);
    // Once loaded, it decodes as fast as a warm one.
    assertThat(decodeMs(coldSink)).isCloseTo(decodeMs(warmSink), within(1.0));
  }

  @Test
  void shouldLoadWhenPreWarmedAndBeWarmAfterTheWarmUp() {
    final SimulatedGpu cold = new SimulatedGpu("gpu-6", "zone-a", "sim-8b", GpuProfile.standard(), false, clock);

    clock.advance(Duration.ofSeconds(30));
    assertThat(cold.sample(clock.millis()).orElseThrow().getKvWarmupLevel()).isZero();
    cold.onCommand(preWarm());
    clock.advance(Duration.ofSeconds(8));
    assertThat(cold.sample(clock.millis()).orElseThrow().getKvWarmupLevel())
        .isGreaterThanOrEqualTo(ScoreRows.WARM_LEVEL);
  }

  private static InstanceCommand preWarm() {
    return InstanceCommand.newBuilder().setInstanceId("gpu-5").setType(CommandType.PRE_WARM)
        .setSequenceId(null).setEpoch(0).setReason("test").setIssuedAtMs(START_MS).build();
  }

  private InstanceTelemetry sampleAt(final long nowMs) {
    return gpu.sample(nowMs).orElseThrow();
  }

  private static double decodeMs(final RecordingSink sink) {
    final List<Long> nanos = sink.chunkNanos();
    return (nanos.get(nanos.size() - 1) - nanos.get(0)) / 1e6;
  }
}
