package io.zerolayer.heatmap;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.testing.GoldenFile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HeatmapTopologyTest {

  private final HeatmapDriver heatmap = new HeatmapDriver(Map.of());

  @AfterEach
  void tearDown() {
    heatmap.close();
  }

  @Test
  void shouldMatchTheCheckedInTopologyDescription() throws Exception {
    GoldenFile.assertMatches("heatmap-topology.txt", HeatmapTopology.build(heatmap.config, heatmap.catalogue,
        heatmap.serdes, new SimpleMeterRegistry()).describe().toString());
  }

  @Test
  void shouldPublishOneRowPerInstanceAndEmitIntervalNotOnePerSample() {
    // wall clock 0-200 ms: four samples 50 ms apart; the emit at 200 ms publishes one row
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));

    final List<InstanceScore> rows = heatmap.rows();

    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).getState()).isEqualTo(InstanceState.HEALTHY);
    assertThat(rows.get(0).getWeight()).isEqualTo(1.0);
    assertThat(rows.get(0).getLastTelemetryMs()).isEqualTo(HeatmapDriver.START.toEpochMilli() + 150);
  }

  @Test
  void shouldNotRepublishAnInstanceWhoseRowDidNotChange() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    assertThat(heatmap.rows()).hasSize(1);

    heatmap.advance(Duration.ofMillis(200));

    assertThat(heatmap.rows()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "restarted cold, 0.1, 0.0",
      "out of service, 0.99, 1.0"})
  void shouldPublishARowThatTakesAnInstanceOutOfNewWorksWayOnTheSampleThatShowsIt(final String what,
      final double fragmentation, final double warmupLevel) {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    assertThat(heatmap.rows()).hasSize(1);

    // wall clock 200 ms, between two emissions: one sample shows the change
    heatmap.telemetry.pipeInput("gpu-1", HeatmapDriver.healthy("gpu-1", heatmap.now())
        .setVramFragmentation(fragmentation).setKvWarmupLevel(warmupLevel).build(), heatmap.now());

    final List<InstanceScore> rows = heatmap.rows();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).getLastTelemetryMs()).isEqualTo(heatmap.now());
    assertThat(rows.get(0).getWarmupLevel()).isEqualTo(warmupLevel);
    assertThat(rows.get(0).getWeight()).isEqualTo(fragmentation > 0.92 ? 0.0 : 1.0);
  }

  @Test
  void shouldHoldARowThatLeavesTheInstanceUsableAndWarmUntilTheNextEmission() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    assertThat(heatmap.rows()).hasSize(1);

    heatmap.telemetry.pipeInput("gpu-1", HeatmapDriver.healthy("gpu-1", heatmap.now())
        .setRunningRequests(9).setVramFragmentation(0.5).build(), heatmap.now());
    assertThat(heatmap.rows()).isEmpty();

    heatmap.advance(Duration.ofMillis(200));
    assertThat(heatmap.rows()).extracting(InstanceScore::getRunningRequests).containsExactly(9);
  }

  @Test
  void shouldPublishTheMostAnInstanceRanWhileRequestsQueuedAndKeepItOnceTheQueueIsGone() {
    heatmap.feed("gpu-1", sample -> sample.setRunningRequests(5), Duration.ofMillis(400));
    assertThat(heatmap.latest("gpu-1").getBatchSlots()).as("no queue seen yet").isZero();

    heatmap.feed("gpu-1", sample -> sample.setRunningRequests(12).setQueueLength(3), Duration.ofMillis(400));
    assertThat(heatmap.latest("gpu-1").getBatchSlots()).isEqualTo(12);

    heatmap.feed("gpu-1", sample -> sample.setRunningRequests(7).setQueueLength(0), Duration.ofMillis(400));
    final InstanceScore row = heatmap.latest("gpu-1");
    assertThat(row.getRunningRequests()).isEqualTo(7);
    assertThat(row.getBatchSlots()).isEqualTo(12);

    // A sample taken while a queue is being admitted shows a queue beside free slots
    heatmap.feed("gpu-1", sample -> sample.setRunningRequests(2).setQueueLength(5), Duration.ofMillis(50));
    heatmap.advance(Duration.ofMillis(200));
    assertThat(heatmap.latest("gpu-1").getBatchSlots()).isEqualTo(12);
  }

  @Test
  void shouldPublishTheBatchAnInstanceSaysItRunsBeforeItHasEverQueued() {
    heatmap.feed("gpu-1", sample -> sample.setRunningRequests(3).setBatchSlots(8), Duration.ofMillis(400));
    assertThat(heatmap.latest("gpu-1").getBatchSlots()).as("said, not learned from a queue").isEqualTo(8);

    // A queue beside fewer running requests (a request being admitted) does not change what it says
    heatmap.feed("gpu-1", sample -> sample.setRunningRequests(6).setQueueLength(2).setBatchSlots(8),
        Duration.ofMillis(400));
    assertThat(heatmap.latest("gpu-1").getBatchSlots()).isEqualTo(8);
  }

  @Test
  void shouldNotTakeAQueueInOneSampleAloneForAFullBatch() {
    heatmap.feed("gpu-1", sample -> sample.setRunningRequests(5), Duration.ofMillis(400));
    // Caught as a request was being admitted between two engine steps
    heatmap.feed("gpu-1", sample -> sample.setRunningRequests(5).setQueueLength(1), Duration.ofMillis(50));
    heatmap.feed("gpu-1", sample -> sample.setRunningRequests(6), Duration.ofMillis(400));

    assertThat(heatmap.latest("gpu-1").getBatchSlots()).isZero();
  }

  @Test
  void shouldDriveGpuSaturationFromTheShortWindowMean() {
    // 1 s window: half the samples at 100 % and half at 94 %: busy peaks, mean 97 %
    heatmap.feed("gpu-1", sample -> sample.setGpuUtilization(heatmap.now() % 100 == 0 ? 1.0 : 0.94),
        Duration.ofMillis(1000));
    assertThat(heatmap.latest("gpu-1").getState()).isEqualTo(InstanceState.HEALTHY);

    heatmap.feed("gpu-1", sample -> sample.setGpuUtilization(0.99), Duration.ofMillis(1000));

    final InstanceScore row = heatmap.latest("gpu-1");
    assertThat(row.getState()).isEqualTo(InstanceState.UNAVAILABLE);
    assertThat(row.getWeight()).isZero();
  }

  @Test
  void shouldPublishTheFittedLatencyModelInTheRow() {
    for (int i = 0; i < 20; i++) {
      final int in = 100 + 37 * i;
      final int out = 10 + 13 * (i % 7);
      heatmap.completions.pipeInput("gpu-1", io.zerolayer.contract.avro.Completion.newBuilder()
          .setSequenceId("s-" + i).setEpoch(1).setInstanceId("gpu-1").setInputTokens(in).setOutputTokens(out)
          .setTtftMs(30 + 0.2 * in).setTotalMs(30 + 0.2 * in + 25.0 * out)
          .setOutcome(io.zerolayer.contract.avro.CompletionOutcome.FINISHED)
          .setFinishedAtMs(heatmap.now()).build(), heatmap.now());
    }

    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));

    final var model = heatmap.latest("gpu-1").getLatencyModel();
    assertThat(model.getSamples()).isEqualTo(20);
    assertThat(model.getLatencyPerOutputTokenMs()).isBetween(25.0 * 0.95, 25.0 * 1.05);
    assertThat(model.getTtftPerInputTokenMs()).isBetween(0.2 * 0.95, 0.2 * 1.05);
  }

  @Test
  void shouldFitTheServiceTimeLeavingOutWhatAttemptsWaitedInTheEnginesQueue() {
    for (int i = 0; i < 20; i++) {
      final int in = 100 + 37 * i;
      final int out = 10 + 13 * (i % 7);
      final double queued = 150.0 * (i % 5);
      heatmap.completions.pipeInput("gpu-1", io.zerolayer.contract.avro.Completion.newBuilder()
          .setSequenceId("s-" + i).setEpoch(1).setInstanceId("gpu-1").setInputTokens(in).setOutputTokens(out)
          .setTtftMs(queued + 30 + 0.2 * in).setTotalMs(queued + 30 + 0.2 * in + 25.0 * out).setQueuedMs(queued)
          .setOutcome(io.zerolayer.contract.avro.CompletionOutcome.FINISHED)
          .setFinishedAtMs(heatmap.now()).build(), heatmap.now());
    }

    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));

    final var model = heatmap.latest("gpu-1").getLatencyModel();
    assertThat(model.getTtftInterceptMs()).isBetween(30.0 * 0.9, 30.0 * 1.1);
    assertThat(model.getTtftPerInputTokenMs()).isBetween(0.2 * 0.95, 0.2 * 1.05);
    assertThat(model.getLatencyPerOutputTokenMs()).isBetween(25.0 * 0.95, 25.0 * 1.05);
  }

  @Test
  void shouldLearnTheShareOfTheLimitRequestsUseOnlyFromThoseThatMayStopEarly() {
    completions(0, 20, false, 50);
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    final double share = heatmap.latest("gpu-1").getLatencyModel().getExpectedOutputShare();

    completions(20, 20, true, 100);
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));

    final var model = heatmap.latest("gpu-1").getLatencyModel();
    assertThat(share).isBetween(0.6, 0.75);
    assertThat(model.getSamples()).isEqualTo(40);
    assertThat(model.getExpectedOutputShare()).isEqualTo(share);
  }

  private void completions(final int first, final int count, final boolean ignoreEos, final int outputTokens) {
    for (int i = first; i < first + count; i++) {
      heatmap.completions.pipeInput("gpu-1", io.zerolayer.contract.avro.Completion.newBuilder()
          .setSequenceId("s-" + i).setEpoch(1).setInstanceId("gpu-1").setInputTokens(100 + i)
          .setOutputTokens(outputTokens).setMaxOutputTokens(100).setIgnoreEos(ignoreEos)
          .setTtftMs(50).setTotalMs(50 + 20.0 * outputTokens)
          .setOutcome(io.zerolayer.contract.avro.CompletionOutcome.FINISHED)
          .setFinishedAtMs(heatmap.now()).build(), heatmap.now());
    }
  }
}
