package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.bench.TelemetrySamples.BacklogSlot;
import io.zerolayer.contract.avro.InstanceTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TelemetrySamplesTest {

  private static final long END_MS = 1_700_000_000_000L;

  @Test
  void shouldWriteTheBacklogInTimeOrderEveryInstanceInTurn50MsApart() {
    final TelemetrySamples samples = new TelemetrySamples("gpu-", 3, 1);

    final List<BacklogSlot> slots = new ArrayList<>();
    for (long n = 0; n < 9; n++) {
      slots.add(samples.slot(n, 9, END_MS));
    }

    assertThat(slots).containsExactly(
        new BacklogSlot(0, END_MS - 100), new BacklogSlot(1, END_MS - 100), new BacklogSlot(2, END_MS - 100),
        new BacklogSlot(0, END_MS - 50), new BacklogSlot(1, END_MS - 50), new BacklogSlot(2, END_MS - 50),
        new BacklogSlot(0, END_MS), new BacklogSlot(1, END_MS), new BacklogSlot(2, END_MS));
    assertThat(samples.backlogSpan(9)).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void shouldEndAPartialLastRoundAtTheEndTime() {
    final TelemetrySamples samples = new TelemetrySamples("gpu-", 200, 1);

    // 200,001 records of 200 instances: 1001 rounds, the last one holds only instance 0.
    assertThat(samples.slot(200_000, 200_001, END_MS)).isEqualTo(new BacklogSlot(0, END_MS));
    assertThat(samples.slot(0, 200_001, END_MS)).isEqualTo(new BacklogSlot(0, END_MS - 1000 * 50));
    assertThat(samples.backlogSpan(200_001)).isEqualTo(Duration.ofSeconds(50));
  }

  @Test
  void shouldSpreadInstancesOverFourZonesRoundRobin() {
    final TelemetrySamples samples = new TelemetrySamples("gpu-", 8, 1);

    assertThat(samples.sample(5, END_MS).getInstanceId()).isEqualTo("gpu-5");
    assertThat(List.of(0, 1, 2, 3, 4, 5).stream().map(i -> samples.sample(i, END_MS).getZone()).toList())
        .containsExactly("zone-a", "zone-b", "zone-c", "zone-d", "zone-a", "zone-b");
  }

  @Test
  void shouldKeepEverySampleInsideTheHealthyRangeOfEveryRule() {
    final TelemetrySamples samples = new TelemetrySamples("gpu-", 50, 7);

    for (int n = 0; n < 20_000; n++) {
      final InstanceTelemetry sample = samples.sample(n % 50, END_MS + n);
      assertThat(sample.getSampleTimeMs()).isEqualTo(END_MS + n);
      // DESIGN section 5: fragmentation under 70 %, TGSV under 15 ms, GPU at most 98 %,
      // warm (>= 95 %), retransmits at most 8 %.
      assertThat(sample.getVramFragmentation()).isBetween(0.0, 0.70);
      assertThat(sample.getTokenIntervalStddevMs()).isBetween(0.0, 15.0);
      assertThat(sample.getGpuUtilization()).isBetween(0.0, 0.98);
      assertThat(sample.getKvWarmupLevel()).isGreaterThanOrEqualTo(0.95);
      assertThat(sample.getTcpRetransmitRate()).isBetween(0.0, 0.08);
      assertThat(sample.getAllocationErrors()).isZero();
      assertThat(sample.getRunningRequests()).isPositive();
    }
  }

  @Test
  void shouldVaryValuesFromSampleToSampleButRepeatThemForTheSameSeed() {
    final TelemetrySamples first = new TelemetrySamples("gpu-", 1, 42);
    final TelemetrySamples again = new TelemetrySamples("gpu-", 1, 42);

    final InstanceTelemetry a = first.sample(0, END_MS);
    final InstanceTelemetry b = first.sample(0, END_MS);

    assertThat(a.getVramFragmentation()).isNotEqualTo(b.getVramFragmentation());
    assertThat(again.sample(0, END_MS)).isEqualTo(a);
  }
}
