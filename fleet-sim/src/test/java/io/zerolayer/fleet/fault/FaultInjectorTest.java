package io.zerolayer.fleet.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.fleet.ManualClock;
import io.zerolayer.fleet.SimulatedGpu;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FaultInjectorTest {

  private static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");

  private final ManualClock gpuClock = new ManualClock(NOW.toEpochMilli());
  private final SimulatedGpu gpu0 = gpu("gpu-0", "zone-a");
  private final SimulatedGpu gpu1 = gpu("gpu-1", "zone-b");
  private final SimulatedGpu gpu2 = gpu("gpu-2", "zone-b");
  private final FaultTargets fleet = FaultTargets.of(List.of(gpu0, gpu1, gpu2));
  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

  @Test
  void shouldInjectEntriesAlreadyDueAtOnceInOrderAndReportEachWithItsTimeAndInstances() throws Exception {
    final Instant start = NOW.minus(Duration.ofMinutes(1));
    try (FaultInjector injector = new FaultInjector(fleet,
        FaultSchedule.parse("crash@20s:gpu-1, oom@0s:gpu-0, zone-loss@10s:zone-b"), clock)) {

      final List<AppliedFault> applied = injector.start(start).get(10, TimeUnit.SECONDS);

      assertThat(applied).extracting(fault -> fault.fault().toString())
          .containsExactly("oom@0s:gpu-0", "zone-loss@10s:zone-b", "crash@20s:gpu-1");
      assertThat(applied).extracting(AppliedFault::instanceIds)
          .containsExactly(List.of("gpu-0"), List.of("gpu-1", "gpu-2"), List.of("gpu-1"));
      assertThat(applied).allSatisfy(fault -> {
        assertThat(fault.appliedAt()).isEqualTo(NOW);
        assertThat(fault.sinceStart()).isEqualTo(Duration.ofMinutes(1));
      });
      assertThat(injector.applied()).isEqualTo(applied);
    }
    assertThat(sample(gpu0).getAllocationErrors()).isPositive();
    assertThat(sample(gpu0).getTcpRetransmitRate()).isLessThan(0.01);
    assertThat(sample(gpu2).getTcpRetransmitRate()).isGreaterThan(0.08);
    assertThat(gpu1.sample(gpuClock.millis())).isEmpty();
  }

  @Test
  void shouldNotInjectAFaultBeforeItIsDue() {
    try (FaultInjector injector = new FaultInjector(fleet,
        FaultSchedule.parse("oom@0s:gpu-0, crash@60m:gpu-1"), clock)) {

      final var done = injector.start(NOW);

      await().atMost(Duration.ofSeconds(10)).until(() -> injector.applied().size() == 1);
      assertThat(done).isNotDone();
      assertThat(gpu1.sample(gpuClock.millis())).isPresent();
    }
  }

  @Test
  void shouldCompleteAtOnceWithoutFaults() throws Exception {
    try (FaultInjector injector = new FaultInjector(fleet, FaultSchedule.none(), clock)) {
      assertThat(injector.start(NOW).get(1, TimeUnit.SECONDS)).isEmpty();
    }
  }

  @Test
  void shouldRefuseAnEntryWhoseTargetIsNotThere() {
    assertThatThrownBy(() -> new FaultInjector(fleet, FaultSchedule.parse("oom@1s:gpu-0, cold@2s:gpu-9"), clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cold@2s:gpu-9");
    assertThatThrownBy(() -> new FaultInjector(fleet, FaultSchedule.parse("zone-loss@1s:zone-z"), clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zone-z");
    assertThatThrownBy(() -> new FaultInjector(fleet, FaultSchedule.parse("zone-loss@1s:gpu-0"), clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a zone no instance runs in");
  }

  @Test
  void shouldStartOnlyOnce() {
    try (FaultInjector injector = new FaultInjector(fleet, FaultSchedule.none(), clock)) {
      injector.start(NOW);

      assertThatThrownBy(() -> injector.start(NOW)).isInstanceOf(IllegalStateException.class);
    }
  }

  private InstanceTelemetry sample(final SimulatedGpu gpu) {
    return gpu.sample(gpuClock.millis()).orElseThrow();
  }

  private SimulatedGpu gpu(final String id, final String zone) {
    return new SimulatedGpu(id, zone, "sim-8b", GpuProfile.standard(), true, gpuClock);
  }
}
