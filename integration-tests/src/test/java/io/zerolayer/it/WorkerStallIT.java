package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.router.RouterConfig;
import io.zerolayer.router.policy.RoundRobinPolicy;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.TestCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** A worker that stops making progress mid-stream: token-buffer notices, the router cuts over. */
@ExtendWith(TestCluster.class)
class WorkerStallIT {

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldGiveTheClientTheSameTextAsAnUninterruptedRunWhenItsWorkerStalls(final TestCluster.Handle cluster)
      throws Exception {
    try (StreamingRig rig = StreamingRig.start(cluster)) {
      final StreamingRig.Story story = rig.requestStory("stalls", 9);
      final String owner = story.first().getInstanceId();
      rig.awaitTokens("stalls", 8);

      // When its worker stops making progress
      rig.fleet().gpu(owner).stall();

      // Then the client's text is byte-identical to an uninterrupted run, and the outcome is cutover
      final Response response = story.answer().get(60, TimeUnit.SECONDS);
      assertThat(response.text()).isEqualTo(ExpectedText.of(story.request()));
      assertThat(response.outcome()).isEqualTo(RoutingOutcome.CUTOVER);
      final List<RoutingDecision> all = rig.decisions().awaitFor(List.of("stalls"), Duration.ofSeconds(5))
          .get("stalls");
      // (this busy machine can slow the backup past the heatmap's cadence rule, which moves the sequence once
      // more, each move an epoch of its own)
      assertThat(all).extracting(RoutingDecision::getEpoch).startsWith(1, 2);
      assertThat(all.get(1).getInstanceId()).isNotEqualTo(owner);
      assertThat(all.get(1).getReason()).contains(owner + " stalled");

      // And token-buffer answers for the sequence: every token, the latest epoch, its new owner
      final RoutingDecision latest = all.get(all.size() - 1);
      final HttpClient http = HttpClient.newHttpClient();
      final String base = rig.pipeline().tokenBufferUrl() + "/v1/sequences/";
      final String bearer = "Bearer " + rig.pipeline().sequenceQueryToken();
      final JsonNode sequence = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(
          URI.create(base + "stalls")).header("Authorization", bearer).build(), HttpResponse.BodyHandlers.ofString())
          .body());
      assertThat(sequence.path("epoch").asInt()).isEqualTo(latest.getEpoch());
      assertThat(sequence.path("owner").asText()).isEqualTo(latest.getInstanceId());
      assertThat(sequence.path("status").asText()).isEqualTo("FINISHED");
      assertThat(sequence.path("nextIndex").asInt()).isEqualTo(response.tokens().size());
      assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "nope")).header("Authorization", bearer).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldFenceAStaleWorkerThatKeepsSendingAfterTheCutOver(final TestCluster.Handle cluster) throws Exception {
    try (StreamingRig rig = StreamingRig.start(cluster);
        KafkaProducer<String, TokenChunk> zombie = new KafkaProducer<>(new HashMap<>(rig.settings()
            .clientProperties()), new StringSerializer(), rig.serdes().value(Topics.TOKENS).serializer())) {
      final StreamingRig.Story story = rig.requestStory("zombie", 11);
      final String owner = story.first().getInstanceId();

      // Given the owner stalled and the sequence was cut over to the other instance
      rig.fleet().gpu(owner).stall();
      await().atMost(Duration.ofSeconds(30))
          .until(() -> rig.decisions().all().stream().anyMatch(d -> d.getSequenceId().equals("zombie")
              && d.getEpoch() == 2));

      // When the old owner wakes up and keeps sending chunks of its epoch
      for (int i = 0; i < 20; i++) {
        zombie.send(new ProducerRecord<>(rig.catalogue().name(Topics.TOKENS), "zombie", TokenChunk.newBuilder()
            .setSequenceId("zombie").setEpoch(1).setInstanceId(owner).setStartIndex(i * 4)
            .setTokens(List.of(" ZOMBIE", " ZOMBIE", " ZOMBIE", " ZOMBIE")).setEmittedAtMs(System.currentTimeMillis())
            .build()));
      }
      zombie.flush();

      // Then none of its tokens reach the client
      final Response response = story.answer().get(60, TimeUnit.SECONDS);
      assertThat(response.text()).doesNotContain("ZOMBIE").isEqualTo(ExpectedText.of(story.request()));
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldSendANewRequestAroundAnInstanceWhoseStreamsJustStalledTogether(final TestCluster.Handle cluster)
      throws Exception {
    // The router's mark held for 30 s instead of 2, so that on a busy machine the next request still
    // comes while it holds, and the two cut-overs that make it counted within 30 s instead of 1: on a
    // busy machine the two stalls may be reported by different rules, over a second apart. That a
    // mark ends after its hold, and needs its cut-overs within the window, is RecentCutoversTest's.
    try (StreamingRig rig = StreamingRig.start(cluster, Map.of(RouterConfig.AVOID_HOLD_MS, 30_000L,
        RouterConfig.AVOID_WINDOW_MS, 30_000L))) {
      // Given three streams over the two instances, two of them on one
      final List<StreamingRig.Story> stories = List.of(rig.requestStory("s1", 21), rig.requestStory("s2", 22),
          rig.requestStory("s3", 23));
      final Map<String, List<String>> byOwner = stories.stream().collect(Collectors.groupingBy(
          story -> story.first().getInstanceId(), Collectors.mapping(story -> story.first().getSequenceId(),
              Collectors.toList())));
      final String owner = byOwner.entrySet().stream().filter(e -> e.getValue().size() >= 2).findFirst()
          .orElseThrow().getKey();
      byOwner.get(owner).forEach(sequenceId -> rig.awaitTokens(sequenceId, 4));

      // When that instance stalls, both its streams are cut over and it looks the less busy of the two
      rig.fleet().gpu(owner).stall();
      await().atMost(Duration.ofSeconds(30)).until(() -> rig.decisions().all().stream()
          .filter(d -> d.getEpoch() == 2 && byOwner.get(owner).contains(d.getSequenceId())).count() == 2);
      final String other = rig.fleet().instanceIds().stream().filter(id -> !id.equals(owner)).findFirst()
          .orElseThrow();
      await().atMost(Duration.ofSeconds(10)).until(() -> work(rig, owner) < work(rig, other));
      final StreamingRig.Story next = rig.requestStory("s4", 24);

      // Then the next request goes to the other instance, which holds all three streams
      assertThat(next.first().getInstanceId()).isNotEqualTo(owner);
      rig.fleet().gpu(owner).resume();
      for (final StreamingRig.Story story : stories) {
        assertWholeOrThrottledPrefix(rig, story);
      }
    }
  }

  /**
   * The story's whole text; or, when this busy machine made the heatmap take the only backup out
   * of service as the cut-over came, the text up to there, no token lost or repeated, ended by a
   * throttle with its Retry-After.
   */
  private static void assertWholeOrThrottledPrefix(final StreamingRig rig, final StreamingRig.Story story)
      throws Exception {
    final Response response = story.answer().get(60, TimeUnit.SECONDS);
    final String expected = ExpectedText.of(story.request());
    final String decided = rig.decisions().describe(story.request().getSequenceId());
    if (response.outcome() == RoutingOutcome.THROTTLED) {
      assertThat(expected).as("throttled %s, decisions %s", story.request().getSequenceId(), decided)
          .startsWith(response.text());
      assertThat(response.last().getRetryAfterMs()).isPositive();
    } else {
      assertThat(response.text()).as("%s ended %s, decisions %s", story.request().getSequenceId(),
          response.outcome(), decided).isEqualTo(expected);
    }
  }

  /** Running plus queued requests of an instance, as the router's heatmap shows them. */
  private static int work(final StreamingRig rig, final String instanceId) {
    final InstanceScore row = rig.pipeline().routerHeatmap().row(instanceId);
    return row.getRunningRequests() + row.getQueueLength();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldLeaveAStalledStreamOnItsInstanceUntilItGoesOnWhenCutOverIsOff(final TestCluster.Handle cluster)
      throws Exception {
    try (StreamingRig rig = StreamingRig.start(cluster, RoundRobinPolicy::new, false)) {
      final StreamingRig.Story story = rig.requestStory("waits", 13);
      final String owner = story.first().getInstanceId();
      rig.awaitTokens("waits", 8);

      // Given token-buffer without cut-over, when the owner stalls for twice the 1.2 s instance timeout
      rig.fleet().gpu(owner).stall();
      // The fault's length, not a wait for a condition: with cut-over on, this stall is cut over.
      await().pollDelay(Duration.ofMillis(2_400)).atMost(Duration.ofSeconds(5)).until(() -> true);
      rig.fleet().gpu(owner).resume();

      // Then the stream waited for it and finished there: one attempt, the same text, no cut-over
      final Response response = story.answer().get(60, TimeUnit.SECONDS);
      assertThat(response.text()).isEqualTo(ExpectedText.of(story.request()));
      assertThat(response.outcome()).isEqualTo(RoutingOutcome.DIRECT);
      assertThat(rig.decisions().all()).filteredOn(d -> d.getSequenceId().equals("waits"))
          .extracting(RoutingDecision::getEpoch).containsExactly(1);
    }
  }
}
