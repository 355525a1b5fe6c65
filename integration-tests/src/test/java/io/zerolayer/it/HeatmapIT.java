package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudevents.CloudEvent;
import io.cloudevents.kafka.CloudEventDeserializer;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.heatmap.HeatmapApp;
import io.zerolayer.heatmap.HeatmapConfig;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TelemetryFeed;
import io.zerolayer.testsupport.SingleBroker;
import io.zerolayer.testsupport.TestCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestCluster.class)
class HeatmapIT {

  private static final List<String> INSTANCES = List.of("gpu-0", "gpu-1", "gpu-2", "gpu-3");
  private static final Duration EMIT_INTERVAL = Duration.ofMillis(200);
  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldEjectAnInstanceWhoseFragmentationStaysAt99PercentAndReturnItToHealthyOnRecovery(
      final TestCluster.Handle cluster) throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).withoutPipeline().start()) {
      final StreamsApp heatmap = rig.open(heatmap(rig, "a"));
      final RecordCollector<String, InstanceScore> scores = rig.collect(Topics.INSTANCE_SCORES);
      final RecordCollector<String, CloudEvent> events = rig.open(new RecordCollector<>(rig.settings(),
          rig.catalogue().name(Topics.STATUS_CHANGED), new StringDeserializer(), new CloudEventDeserializer()));
      final TelemetryFeed feed = rig.open(new TelemetryFeed(rig.settings(), rig.catalogue(), rig.serdes(),
          INSTANCES));
      heatmap.awaitRunning(Duration.ofSeconds(60));
      scores.awaitUntil(rows -> healthy(rows, "gpu-1"), Duration.ofSeconds(30));

      // When gpu-1's fragmentation jumps to 99 % and stays there
      final long jumpMs = System.currentTimeMillis();
      feed.fragmentation("gpu-1", 0.99);

      // Then every row from a sample after the jump has weight 0, the first one within one emit interval
      final List<ConsumerRecord<String, InstanceScore>> ejected = scores.awaitUntil(
          rows -> first(rows, jumpMs, InstanceState.EJECTED) != null, Duration.ofSeconds(10));
      final InstanceScore firstZero = first(ejected, jumpMs, null);
      assertThat(ejected).map(ConsumerRecord::value)
          .filteredOn(row -> row.getInstanceId().equals("gpu-1") && row.getLastTelemetryMs() >= jumpMs)
          .allSatisfy(row -> assertThat(row.getWeight()).isZero());
      // published from the sample that shows it, not at an emission: within a few emit intervals of
      // gpu-1's previous row (one, on an idle machine; 660 ms was seen once on this busy one), and
      // soon after the sample was taken
      final InstanceScore before = ejected.stream().map(ConsumerRecord::value)
          .filter(row -> row.getInstanceId().equals("gpu-1") && row.getLastTelemetryMs() < jumpMs)
          .reduce((first, second) -> second).orElseThrow();
      assertThat(firstZero.getUpdatedAtMs() - before.getUpdatedAtMs())
          .isLessThanOrEqualTo(4 * EMIT_INTERVAL.toMillis());
      assertThat(firstZero.getUpdatedAtMs() - firstZero.getLastTelemetryMs()).isLessThanOrEqualTo(1_000);
      // and it is EJECTED after the 3 s observation, within a few emit intervals of its end (a
      // punctuation runs late on this busy 2-core machine: 3.59 s was seen once)
      assertThat(first(ejected, jumpMs, InstanceState.EJECTED).getUpdatedAtMs() - jumpMs)
          .isBetween(3_000L, 3_000L + 5 * EMIT_INTERVAL.toMillis());

      // and a CloudEvents consumer parses the transition
      final CloudEvent event = events.awaitUntil(all -> eventTo(all, "EJECTED") != null, Duration.ofSeconds(10))
          .stream().map(ConsumerRecord::value).filter(e -> "EJECTED".equals(data(e).get("newState").asText()))
          .findFirst().orElseThrow();
      assertThat(event.getType()).isEqualTo("routing_status_changed");
      assertThat(event.getSubject()).isEqualTo("gpu-1");
      assertThat(data(event).get("oldState").asText()).isEqualTo("UNAVAILABLE");
      assertThat(data(event).get("metrics").get("vramFragmentation").asDouble()).isEqualTo(0.99);

      // and the interactive query shows the new state
      final int port = heatmap.server().port();
      final JsonNode instance = get(port, "/v1/instances/gpu-1");
      assertThat(instance.get("state").asText()).isEqualTo("EJECTED");
      assertThat(instance.get("latencyModel").has("decodeStepPerSequenceMs")).isTrue();
      assertThat(instance.get("signals").has("batchSlots")).isTrue();
      assertThat(instance.get("runningTokensToLimit").isArray()).isTrue();

      // When it recovers, it returns to healthy (through RECOVERING)
      feed.fragmentation("gpu-1", 0.30);
      Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
          .until(() -> "HEALTHY".equals(get(port, "/v1/instances/gpu-1").get("state").asText()));
      Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(events.records())
          .map(ConsumerRecord::value).filteredOn(e -> "gpu-1".equals(e.getSubject()))
          .map(e -> data(e).get("newState").asText()).containsSubsequence("EJECTED", "RECOVERING", "HEALTHY"));
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldAnswerEveryInstanceFromEitherOfTwoAppInstancesByForwarding(final TestCluster.Handle cluster)
      throws Exception {
    final List<String> many = List.of("gpu-0", "gpu-1", "gpu-2", "gpu-3", "gpu-4", "gpu-5", "gpu-6", "gpu-7");
    try (PipelineRig rig = PipelineRig.on(cluster).withoutPipeline().start()) {
      final StreamsApp first = rig.open(heatmap(rig, "a"));
      final StreamsApp second = rig.open(heatmap(rig, "b"));
      rig.open(new TelemetryFeed(rig.settings(), rig.catalogue(), rig.serdes(), many));
      first.awaitRunning(Duration.ofSeconds(90));
      second.awaitRunning(Duration.ofSeconds(90));
      // Given both app instances hold some of the instances' partitions
      Awaitility.await().atMost(Duration.ofSeconds(60)).until(() ->
          !first.streams().metadataForLocalThreads().iterator().next().activeTasks().isEmpty()
              && !second.streams().metadataForLocalThreads().iterator().next().activeTasks().isEmpty());

      // Then each answers for every instance, and the whole heatmap and zones
      for (final StreamsApp app : List.of(first, second)) {
        final int port = app.server().port();
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
          for (final String id : many) {
            assertThat(get(port, "/v1/instances/" + id).get("instanceId").asText()).isEqualTo(id);
            assertThat(get(port, "/v1/instances/" + id + "/history?windows=short").size()).isPositive();
          }
          assertThat(get(port, "/v1/heatmap").size()).isEqualTo(many.size());
          assertThat(get(port, "/v1/zones").get(0).get("members").asInt()).isEqualTo(many.size());
        });
      }
    }
  }

  private static StreamsApp heatmap(final PipelineRig rig, final String name) {
    return HeatmapApp.start(rig.settings(), new HeatmapConfig(SingleBroker.settings(HeatmapConfig.PREFIX,
        Map.of(
        HeatmapConfig.APPLICATION_ID, rig.catalogue().name(Topics.TELEMETRY) + "-heatmap",
        HeatmapConfig.STATE_DIR, rig.stateDir().resolve(name).toString(),
        HeatmapConfig.HTTP_PORT, 0,
        HeatmapConfig.EMIT_INTERVAL_MS, EMIT_INTERVAL.toMillis(),
        // These tests are about fragmentation and forwarding, not silence: a feed held up for half
        // a second on this busy machine (a pause of the broker's JVM) must not make gpu-1 SUSPECT
        // during its observation. Staleness has tests of its own.
        HeatmapConfig.SUSPECT_AFTER_MS, 2_000L,
        HeatmapConfig.EJECT_AFTER_MS, 10_000L))), "127.0.0.1");
  }

  private static boolean healthy(final List<ConsumerRecord<String, InstanceScore>> rows, final String id) {
    return rows.stream().anyMatch(r -> r.value().getInstanceId().equals(id)
        && r.value().getState() == InstanceState.HEALTHY);
  }

  /** The first row of gpu-1 from a sample after {@code afterMs} (in the given state, if any). */
  private static InstanceScore first(final List<ConsumerRecord<String, InstanceScore>> rows, final long afterMs,
      final InstanceState state) {
    return rows.stream().map(ConsumerRecord::value)
        .filter(row -> row.getInstanceId().equals("gpu-1") && row.getLastTelemetryMs() >= afterMs)
        .filter(row -> state == null || row.getState() == state).findFirst().orElse(null);
  }

  private CloudEvent eventTo(final List<ConsumerRecord<String, CloudEvent>> all, final String state) {
    return all.stream().map(ConsumerRecord::value).filter(e -> state.equals(data(e).get("newState").asText()))
        .findFirst().orElse(null);
  }

  private JsonNode data(final CloudEvent event) {
    try {
      return json.readTree(event.getData().toBytes());
    } catch (final java.io.IOException e) {
      throw new IllegalStateException("Status event data is not JSON: " + e.getMessage(), e);
    }
  }

  private JsonNode get(final int port, final String path) throws Exception {
    final HttpResponse<String> answer = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as("GET %s: %s", path, answer.body()).isEqualTo(200);
    return json.readTree(answer.body());
  }
}
