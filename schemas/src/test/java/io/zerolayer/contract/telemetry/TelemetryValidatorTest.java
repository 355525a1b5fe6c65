package io.zerolayer.contract.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceTelemetry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TelemetryValidatorTest {

  private static final long NOW = 1_750_000_000_000L;

  private final TelemetryValidator validator = new TelemetryValidator(Duration.ofSeconds(30));

  @Test
  void shouldAcceptAPlausibleSample() {
    assertThat(validator.problems(sample().build(), NOW)).isEmpty();
  }

  @Test
  void shouldNameEveryImpossibleValue() {
    final InstanceTelemetry sample = sample().setGpuUtilization(1.2).setQueueLength(-1).setZone("")
        .setVramFragmentation(Double.NaN).setRunningTokensToLimit(List.of(12, -3)).build();

    assertThat(validator.problems(sample, NOW)).containsExactlyInAnyOrder(
        "zone is empty", "gpuUtilization is 1.2, outside [0, 1]", "vramFragmentation is NaN, outside [0, 1]",
        "queueLength is -1.0, negative", "runningTokensToLimit holds a negative count: [12, -3]");
  }

  @Test
  void shouldRefuseASampleFromTooFarInTheFutureOrThePast() {
    assertThat(validator.problems(sample().setSampleTimeMs(NOW + 31_000).build(), NOW)).hasSize(1);
    assertThat(validator.problems(sample().setSampleTimeMs(NOW - 31_000).build(), NOW)).hasSize(1);
    assertThat(validator.problems(sample().setSampleTimeMs(NOW - 30_000).build(), NOW)).isEmpty();
  }

  private static InstanceTelemetry.Builder sample() {
    return InstanceTelemetry.newBuilder()
        .setInstanceId("gpu-1").setZone("zone-a").setModel("sim").setSampleTimeMs(NOW)
        .setGpuUtilization(0.5).setVramUsedBytes(1L << 30).setVramFragmentation(0.2)
        .setKvCacheHitRate(0.4).setKvWarmupLevel(1.0).setNcclRingLatencyMs(0.3).setTcpRetransmitRate(0.0)
        .setQueueLength(0).setRunningRequests(2).setDecodeTokensPerS(900).setTokenIntervalStddevMs(4.0)
        .setAllocationErrors(0);
  }
}
