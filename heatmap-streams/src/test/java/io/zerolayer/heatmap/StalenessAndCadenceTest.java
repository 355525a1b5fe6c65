package io.zerolayer.heatmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cloudevents.CloudEvent;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** TGSV bands, staleness and network degradation, through the topology. */
class StalenessAndCadenceTest {

  private final HeatmapDriver heatmap = new HeatmapDriver(Map.of());

  @AfterEach
  void tearDown() {
    heatmap.close();
  }

  @ParameterizedTest(name = "TGSV {0} ms -> weight {1}, cut over {2}")
  @CsvSource({
      "14.9, 1.0, false",
      "15.0, 1.0, false",
      "32.5, 0.5, false",
      "50.0, 0.0, false",
      "50.1, 0.0, true"})
  void shouldWeighTokenCadenceByItsBand(final double tgsvMs, final double weight, final boolean cutOver) {
    heatmap.feed("gpu-1", sample -> sample.setTokenIntervalStddevMs(tgsvMs), Duration.ofMillis(1_000));

    final InstanceScore row = heatmap.latest("gpu-1");
    assertThat(row.getWeight()).isCloseTo(weight, within(1e-9));
    assertThat(row.getCutOverInFlight()).isEqualTo(cutOver);
  }

  @Test
  void shouldSuspectThenEjectASilentInstanceWithoutAnyRecordArriving() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    heatmap.rows();
    heatmap.statusEvents();

    heatmap.advance(Duration.ofMillis(600));
    assertThat(heatmap.latest("gpu-1").getState()).isEqualTo(InstanceState.SUSPECT);

    heatmap.advance(Duration.ofMillis(1_400));
    final InstanceScore row = heatmap.latest("gpu-1");
    assertThat(row.getState()).isEqualTo(InstanceState.EJECTED);
    assertThat(row.getWeight()).isZero();
    assertThat(heatmap.instanceStates("gpu-1")).containsExactly("SUSPECT", "EJECTED");
  }

  @Test
  void shouldCountSilenceAgainAfterThePausesOfTheHeatmapItself() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    heatmap.statusEvents();

    // When the heatmap itself does not run for 2 s (its JVM paused), no instance is judged for it
    heatmap.pause(Duration.ofMillis(2_000));
    heatmap.advance(Duration.ofMillis(400));
    assertThat(heatmap.instanceStates("gpu-1")).isEmpty();

    // and silence that goes on while it watches again is
    heatmap.advance(Duration.ofMillis(200));
    assertThat(heatmap.instanceStates("gpu-1")).containsExactly("SUSPECT");
  }

  @Test
  void shouldComeBackFromSuspectWhenSamplesResume() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    heatmap.advance(Duration.ofMillis(600));

    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));

    assertThat(heatmap.latest("gpu-1").getState()).isEqualTo(InstanceState.HEALTHY);
  }

  @Test
  void shouldReturnAnInstanceEjectedForSilenceToHealthyWithoutARecoveryCap() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    for (int i = 0; i < 12; i++) {
      heatmap.advance(Duration.ofMillis(200));
    }
    assertThat(heatmap.latest("gpu-1").getState()).isEqualTo(InstanceState.EJECTED);

    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));

    assertThat(heatmap.latest("gpu-1").getState()).isEqualTo(InstanceState.HEALTHY);
    assertThat(heatmap.instanceStates("gpu-1")).containsExactly("HEALTHY", "SUSPECT", "EJECTED", "HEALTHY");
  }

  @Test
  void shouldMarkAnInstanceNetworkDegradedAbove8PercentRetransmits() {
    heatmap.feed("gpu-1", sample -> sample.setTcpRetransmitRate(0.15), Duration.ofMillis(2_000));

    final InstanceScore row = heatmap.latest("gpu-1");
    assertThat(row.getNetworkDegraded()).isTrue();
    assertThat(row.getState()).isEqualTo(InstanceState.DEGRADED);
  }

  @Test
  void shouldPublishEveryTransitionAsOneRoutingStatusChangedCloudEvent() {
    heatmap.feed("gpu-1", sample -> sample, Duration.ofMillis(200));
    heatmap.feed("gpu-1", sample -> sample.setVramFragmentation(0.99), Duration.ofMillis(3_200));

    final var events = heatmap.statusEvents().stream().filter(event -> "gpu-1".equals(event.getSubject())).toList();

    assertThat(events).extracting(event -> data(event).get("newState").asText())
        .containsExactly("HEALTHY", "UNAVAILABLE", "EJECTED");
    final CloudEvent ejected = events.get(2);
    assertThat(ejected.getType()).isEqualTo("routing_status_changed");
    assertThat(ejected.getSubject()).isEqualTo("gpu-1");
    assertThat(ejected.getSource().toString()).isEqualTo("/zerolayer/heatmap-streams");
    assertThat(ejected.getTime()).isNotNull();
    assertThat(data(ejected).get("oldState").asText()).isEqualTo("UNAVAILABLE");
    assertThat(data(ejected).get("reason").asText()).contains("fragmentation 99.0%");
    assertThat(data(ejected).get("metrics").get("vramFragmentation").asDouble()).isEqualTo(0.99);
  }

  static com.fasterxml.jackson.databind.JsonNode data(final CloudEvent event) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(event.getData().toBytes());
    } catch (final java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
