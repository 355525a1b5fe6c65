package io.zerolayer.heatmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.CommandType;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fragmentation bands and the 3-second observation, at their edges, through the topology. */
class FragmentationRulesTest {

  private final HeatmapDriver heatmap = new HeatmapDriver(Map.of());

  @AfterEach
  void tearDown() {
    heatmap.close();
  }

  @ParameterizedTest(name = "fragmentation {0} -> weight {1}, {2}, PRE_CLEAR {3}")
  @CsvSource({
      "0.699, 1.0, HEALTHY, false",
      "0.70, 1.0, HEALTHY, false",
      "0.775, 0.65, DEGRADED, false",
      "0.849, 0.3047, DEGRADED, false",
      "0.85, 0.1, DEGRADED, true",
      "0.92, 0.1, DEGRADED, true",
      "0.921, 0.0, UNAVAILABLE, false"})
  void shouldWeighFragmentationByItsBand(final double fragmentation, final double weight, final InstanceState state,
      final boolean preClear) {
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(fragmentation), Duration.ofMillis(200));

    final InstanceScore row = heatmap.latest("gpu-1");
    assertThat(row.getWeight()).isCloseTo(weight, within(1e-3));
    assertThat(row.getState()).isEqualTo(state);
    assertThat(heatmap.commands.readValuesToList())
        .filteredOn(command -> command.getType() == CommandType.PRE_CLEAR)
        .hasSize(preClear ? 1 : 0);
  }

  @Test
  void shouldSendOnePreClearPerStayInThe85To92PercentBand() {
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.88), Duration.ofSeconds(2));
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.50), Duration.ofMillis(200));
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.88), Duration.ofMillis(200));

    assertThat(heatmap.commands.readValuesToList()).hasSize(2);
  }

  @Test
  void shouldEjectInstanceWhenFragmentationStaysAbove92PercentFor3s() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    // wall clock t0: fragmentation jumps to 99 % and stays
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.99), Duration.ofMillis(200));
    assertThat(heatmap.latest("gpu-1").getWeight()).isZero();

    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.99), Duration.ofMillis(2_700));
    assertThat(heatmap.latest("gpu-1").getState()).isEqualTo(InstanceState.UNAVAILABLE);

    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.99), Duration.ofMillis(300));

    final InstanceScore row = heatmap.latest("gpu-1");
    assertThat(row.getState()).isEqualTo(InstanceState.EJECTED);
    assertThat(row.getWeight()).isZero();
  }

  @Test
  void shouldNeverEjectWhenFragmentationFallsBackWithin3sAndCapTheWeightAt0Point3() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    // wall clock t0 .. t0 + 2.9 s above 92 %, then back to 40 %
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.99), Duration.ofMillis(2_900));
    heatmap.rows();

    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.40), Duration.ofMillis(1_000));

    assertThat(heatmap.rows()).extracting(InstanceScore::getState).doesNotContain(InstanceState.EJECTED)
        .last().isEqualTo(InstanceState.RECOVERING);
    assertThat(heatmap.instanceStates("gpu-1")).containsExactly("HEALTHY", "UNAVAILABLE", "RECOVERING");
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.40), Duration.ofMillis(200));
    assertThat(heatmap.latest("gpu-1").getWeight()).isCloseTo(0.3, within(1e-9));
  }

  @Test
  void shouldReturnToHealthyAfterTheRecoveryHold() {
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.99), Duration.ofMillis(3_500));
    // it leaves EJECTED once a whole 1 s window is at or below 92 %, then holds 3 s below 85 %
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.30), Duration.ofMillis(1_000));
    assertThat(heatmap.latest("gpu-1").getState()).isEqualTo(InstanceState.EJECTED);
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.30), Duration.ofMillis(2_900));
    assertThat(heatmap.latest("gpu-1").getState()).isEqualTo(InstanceState.RECOVERING);

    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.30), Duration.ofMillis(300));

    final InstanceScore row = heatmap.latest("gpu-1");
    assertThat(row.getState()).isEqualTo(InstanceState.HEALTHY);
    assertThat(row.getWeight()).isEqualTo(1.0);
  }

  @Test
  void shouldEjectAnInstanceHoveringAround92PercentInsteadOfFlapping() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    // wall clock t0 .. t0 + 4 s: 95 % and 91 % in turn
    final long[] tick = {0};
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(tick[0]++ % 2 == 0 ? 0.95 : 0.91),
        Duration.ofMillis(4_000));

    assertThat(heatmap.instanceStates("gpu-1")).containsExactly("HEALTHY", "UNAVAILABLE", "RECOVERING", "EJECTED");
  }

  @Test
  void shouldStartANewObservationForASpikeLongAfterTheLastOne() {
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.99), Duration.ofMillis(500));
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.88), Duration.ofMillis(4_000));

    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.99), Duration.ofMillis(200));

    final InstanceScore row = heatmap.latest("gpu-1");
    assertThat(row.getState()).isEqualTo(InstanceState.RECOVERING);
    assertThat(row.getWeight()).isZero();
    assertThat(row.getReason()).contains(": observing");
  }

  @Test
  void shouldEjectAtTheEndOfTheObservationEvenWhenNoSampleArrives() {
    try (HeatmapDriver patient = new HeatmapDriver(Map.of(HeatmapConfig.SUSPECT_AFTER_MS, 10_000L,
        HeatmapConfig.EJECT_AFTER_MS, 20_000L))) {
      patient.feed("gpu-1", sample -> sample.setVramFragmentation(0.99), Duration.ofMillis(400));
      assertThat(patient.latest("gpu-1").getState()).isEqualTo(InstanceState.UNAVAILABLE);

      // no sample after t0 + 400 ms; the observation ends at t0 + 3 s on the wall clock alone
      for (int i = 0; i < 14; i++) {
        patient.advance(Duration.ofMillis(200));
      }

      final InstanceScore row = patient.latest("gpu-1");
      assertThat(row.getState()).isEqualTo(InstanceState.EJECTED);
      assertThat(row.getReason()).contains("for 3000 ms");
    }
  }
}
