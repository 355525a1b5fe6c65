package io.zerolayer.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceTelemetry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class NetworkLossFaultTest {

  private static final long START_MS = 1_700_000_000_000L;
  private static final double NANOS_PER_MS = 1_000_000.0;

  @Test
  void shouldRaiseRetransmitsAndNcclLatencyWhileTheNetworkLosesPacketsAndDropThemWhenRestored() {
    final ManualClock clock = new ManualClock(START_MS);
    final SimulatedGpu gpu = gpu(clock);
    final InstanceTelemetry before = gpu.sample(clock.millis()).orElseThrow();

    gpu.loseNetwork(0.15);
    final InstanceTelemetry lossy = gpu.sample(clock.millis()).orElseThrow();
    gpu.restoreNetwork();
    final InstanceTelemetry restored = gpu.sample(clock.millis()).orElseThrow();

    assertThat(lossy.getTcpRetransmitRate()).isGreaterThan(0.08).isLessThan(0.2);
    assertThat(lossy.getNcclRingLatencyMs()).isGreaterThan(10 * before.getNcclRingLatencyMs());
    assertThat(restored.getTcpRetransmitRate()).isLessThan(0.002);
    assertThat(restored.getNcclRingLatencyMs()).isLessThan(0.3);
  }

  @Test
  void shouldHoldALostChunkBackByRetransmissionTimeoutsAndRaiseTgsv() throws Exception {
    final DispatchTask task = Tasks.task("s-1", 100, 2_000);
    final ManualClock healthyClock = new ManualClock(START_MS);
    final SimulatedGpu healthy = gpu(healthyClock);
    final RecordingSink healthySink = new RecordingSink(healthyClock);
    final ManualClock lossyClock = new ManualClock(START_MS);
    final SimulatedGpu lossy = gpu(lossyClock);
    final List<Double> lossyTgsv = new ArrayList<>();
    final RecordingSink lossySink = new RecordingSink(lossyClock,
        chunk -> lossyTgsv.add(lossy.sample(lossyClock.millis()).orElseThrow().getTokenIntervalStddevMs()));
    lossy.loseNetwork(0.15);

    healthy.generate(task, healthySink);
    lossy.generate(task, lossySink);

    final List<Double> extraMs = extraDelaysMs(healthySink.chunkNanos(), lossySink.chunkNanos());
    assertThat(lossySink.text()).isEqualTo(healthySink.text()).isEqualTo(Tasks.fullText(task));
    // 0 (not lost), 200 (lost once), 200 + 400 (lost twice), ...
    assertThat(extraMs).allSatisfy(extra -> assertThat(extra).satisfiesAnyOf(
        ms -> assertThat(ms).isCloseTo(0.0, within(1.0)),
        ms -> assertThat(ms).isCloseTo(200.0, within(1.0)),
        ms -> assertThat(ms).isCloseTo(600.0, within(1.0)),
        ms -> assertThat(ms).isCloseTo(1_400.0, within(1.0))));
    final long delayed = extraMs.stream().filter(ms -> ms > 100).count();
    assertThat((double) delayed / extraMs.size()).isBetween(0.08, 0.25);
    final double healthyTgsv = healthy.sample(healthyClock.millis()).orElseThrow().getTokenIntervalStddevMs();
    assertThat(healthyTgsv).isLessThan(0.5);
    // Right after a lost chunk, the recent intervals hold one retransmission timeout.
    assertThat(lossyTgsv.stream().mapToDouble(Double::doubleValue).max().orElseThrow()).isGreaterThan(50.0);
  }

  /** How much later each chunk came on the lossy run than on the healthy one, beyond the chunk before. */
  private static List<Double> extraDelaysMs(final List<Long> healthy, final List<Long> lossy) {
    assertThat(lossy).hasSameSizeAs(healthy);
    final List<Double> extra = new ArrayList<>();
    long previousLag = 0;
    for (int i = 0; i < healthy.size(); i++) {
      final long lag = lossy.get(i) - healthy.get(i);
      extra.add((lag - previousLag) / NANOS_PER_MS);
      previousLag = lag;
    }
    return extra;
  }

  private static SimulatedGpu gpu(final ManualClock clock) {
    return new SimulatedGpu("gpu-0", "zone-b", "sim-8b", GpuProfile.standard(), true, clock);
  }
}
