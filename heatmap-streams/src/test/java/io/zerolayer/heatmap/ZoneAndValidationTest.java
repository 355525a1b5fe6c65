package io.zerolayer.heatmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.Completion;
import io.zerolayer.contract.avro.CompletionOutcome;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.runtime.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Zone penalty and recovery, and telemetry validation, through the topology. */
class ZoneAndValidationTest {

  private final HeatmapDriver heatmap = new HeatmapDriver(Map.of());

  @AfterEach
  void tearDown() {
    heatmap.close();
  }

  @Test
  void shouldPenaliseAZoneWhenMostOfItsInstancesAreNetworkDegradedAndLiftItOnRecovery() {
    // zone-b: b-0, b-1, b-2; zone-a: a-0. Two of three zone-b instances lose packets.
    run(0.15, Duration.ofSeconds(3));
    final Map<String, InstanceScore> rows = latestRows();
    assertThat(rows.get("b-2").getZonePenalised()).isTrue();
    assertThat(rows.get("b-2").getWeight()).isCloseTo(0.05, within(1e-9));
    assertThat(rows.get("a-0").getZonePenalised()).isFalse();
    assertThat(rows.get("a-0").getWeight()).isEqualTo(1.0);
    assertThat(zoneStates()).contains("PENALISED");

    run(0.001, Duration.ofSeconds(4));

    final Map<String, InstanceScore> after = latestRows();
    assertThat(after.get("b-2").getZonePenalised()).isFalse();
    assertThat(after.get("b-2").getWeight()).isEqualTo(1.0);
    assertThat(zoneStates()).containsExactly("HEALTHY");
  }

  @Test
  void shouldNotPenaliseAZoneWhenOnlyAMinorityIsDegraded() {
    final List<InstanceTelemetry> samples = new ArrayList<>();
    for (long t = 0; t < 3_000; t += HeatmapDriver.SAMPLE_MS) {
      samples.clear();
      samples.add(zoneB("b-0", 0.15));
      samples.add(zoneB("b-1", 0.001));
      samples.add(zoneB("b-2", 0.001));
      heatmap.tick(samples);
    }

    assertThat(latestRows().get("b-1").getZonePenalised()).isFalse();
  }

  @Test
  void shouldMarkAnInstanceNetworkDegradedAtOnceWhenEverySampleFor150MsIsAboveEightPercent() {
    steady("b-0", 0.001, Duration.ofSeconds(1));
    heatmap.rows();

    // The smoothed rate is still near 3 % after four samples at 15 %: the sustained rule marks it.
    steady("b-0", 0.15, Duration.ofMillis(150));
    assertThat(heatmap.rows()).noneMatch(InstanceScore::getNetworkDegraded);
    heatmap.telemetry.pipeInput("b-0", zoneB("b-0", 0.15), heatmap.now());

    final InstanceScore row = heatmap.latest("b-0");
    assertThat(row).as("published with the sample, not at the next emission").isNotNull();
    assertThat(row.getNetworkDegraded()).isTrue();
    assertThat(row.getState()).isEqualTo(InstanceState.DEGRADED);
    assertThat(row.getReason()).contains("TCP retransmit above 8% in every sample for 150 ms");
  }

  @Test
  void shouldNotMarkAnInstanceNetworkDegradedForOneHighSample() {
    steady("b-0", 0.001, Duration.ofSeconds(1));
    steady("b-0", 0.5, Duration.ofMillis(50));
    steady("b-0", 0.001, Duration.ofSeconds(1));

    assertThat(heatmap.rows()).noneMatch(InstanceScore::getNetworkDegraded);
  }

  @Test
  void shouldSendImpossibleTelemetryToTheDeadLetterTopicWithTheReasonAndKeepGoing() {
    heatmap.telemetry.pipeInput("gpu-1", HeatmapDriver.healthy("gpu-1", heatmap.now()).setVramFragmentation(1.7)
        .build(), heatmap.now());
    heatmap.telemetry.pipeInput("gpu-2", HeatmapDriver.healthy("gpu-2", heatmap.now()).setZone("").build(),
        heatmap.now());
    heatmap.feed("gpu-3", sample -> sample, Duration.ofMillis(200));

    final var letters = heatmap.deadLetters.readRecordsToList();
    assertThat(letters).hasSize(2);
    assertThat(header(letters.get(0), DeadLetters.MESSAGE)).contains("vramFragmentation is 1.7, outside [0, 1]");
    assertThat(header(letters.get(1), DeadLetters.MESSAGE)).contains("zone is empty");
    assertThat(letters.get(0).value()).isNotEmpty();
    assertThat(heatmap.rows()).extracting(InstanceScore::getInstanceId).containsExactly("gpu-3");
  }

  @Test
  void shouldSendATombstoneOrAnImpossibleCompletionToTheDeadLetterTopicAndKeepFitting() {
    heatmap.completions.pipeInput("gpu-1", null, heatmap.now());
    heatmap.completions.pipeInput("gpu-1", Completion.newBuilder().setSequenceId("s-1").setEpoch(1)
        .setInstanceId("gpu-1").setInputTokens(10).setOutputTokens(5).setTtftMs(80).setTotalMs(40)
        .setOutcome(CompletionOutcome.FINISHED).setFinishedAtMs(heatmap.now()).build(), heatmap.now());
    for (int i = 0; i < 20; i++) {
      heatmap.completions.pipeInput("gpu-1", Completion.newBuilder().setSequenceId("s-" + (2 + i)).setEpoch(1)
          .setInstanceId("gpu-1").setInputTokens(10 + 7 * i).setOutputTokens(5 + i % 4).setTtftMs(40 + 0.2 * i)
          .setTotalMs(140 + 25.0 * i).setOutcome(CompletionOutcome.FINISHED).setFinishedAtMs(heatmap.now()).build(),
          heatmap.now());
    }
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));

    final var letters = heatmap.deadLetters.readRecordsToList();
    assertThat(letters).hasSize(2);
    assertThat(header(letters.get(0), DeadLetters.MESSAGE)).contains("completion record without a value");
    assertThat(header(letters.get(1), DeadLetters.MESSAGE)).contains("impossible figures");
    assertThat(heatmap.latest("gpu-1").getLatencyModel().getSamples()).isEqualTo(20);
  }

  private void run(final double lossyRetransmits, final Duration duration) {
    for (long t = 0; t < duration.toMillis(); t += HeatmapDriver.SAMPLE_MS) {
      heatmap.tick(List.of(zoneB("b-0", lossyRetransmits), zoneB("b-1", lossyRetransmits), zoneB("b-2", 0.001),
          HeatmapDriver.healthy("a-0", heatmap.now()).build()));
    }
  }

  private void steady(final String instance, final double retransmits, final Duration duration) {
    for (long t = 0; t < duration.toMillis(); t += HeatmapDriver.SAMPLE_MS) {
      heatmap.tick(List.of(zoneB(instance, retransmits)));
    }
  }

  private InstanceTelemetry zoneB(final String instance, final double retransmits) {
    return HeatmapDriver.healthy(instance, heatmap.now()).setZone("zone-b").setTcpRetransmitRate(retransmits).build();
  }

  private Map<String, InstanceScore> latestRows() {
    final Map<String, InstanceScore> latest = new java.util.HashMap<>();
    heatmap.rows().forEach(row -> latest.put(row.getInstanceId(), row));
    return latest;
  }

  private List<String> zoneStates() {
    return heatmap.statusEvents().stream().filter(event -> "zone-b".equals(event.getSubject()))
        .map(event -> StalenessAndCadenceTest.data(event).get("newState").asText()).toList();
  }

  private static String header(final org.apache.kafka.streams.test.TestRecord<byte[], byte[]> record,
      final String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
