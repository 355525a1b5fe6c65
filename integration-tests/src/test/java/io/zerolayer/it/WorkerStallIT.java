package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingDecision;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.avro.TokenChunk;
import io.zerolayer.contract.client.InferenceClient;
import io.zerolayer.contract.client.Response;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.TopicCatalogue;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.deploy.stack.Pipeline;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.router.policy.RoundRobinPolicy;
import io.zerolayer.runtime.ClusterSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** A worker that stops making progress mid-stream: token-buffer notices, the router cuts over. */
@ExtendWith(TestCluster.class)
class WorkerStallIT {

  /** Slow decode (40 ms a step) so the stream is still running when the worker stalls. */
  private static final GpuProfile SLOW = new GpuProfile(16, 20, 0.05, 40, 0.5, Duration.ofSeconds(8), 4);

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldGiveTheClientTheSameTextAsAnUninterruptedRunWhenItsWorkerStalls(final TestCluster.Handle cluster)
      throws Exception {
    final TopicCatalogue catalogue = cluster.newCatalogue();
    final ClusterSettings settings = cluster.settings(catalogue);
    try (Fleet fleet = Fleet.start(settings, 2, List.of("zone-a"), SLOW, new SimpleMeterRegistry());
        Pipeline pipeline = Pipeline.start(settings, cluster.stateDir(catalogue), false, TestTenants.UNLIMITED);
        ContractSerdes serdes = new ContractSerdes(settings.serdes());
        DecisionLog decisions = new DecisionLog(settings, serdes);
        RecordCollector<String, ResponseChunk> responses = new RecordCollector<>(settings,
            catalogue.name(Topics.RESPONSES), new StringDeserializer(), serdes.value(Topics.RESPONSES).deserializer());
        InferenceClient client = new InferenceClient(settings, serdes)) {
      Awaits.routerSees(pipeline, fleet.instanceIds());
      final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("stalls").setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("Tell a long story.").setMaxOutputTokens(64).setSeed(9)
          .setSubmittedAtMs(System.currentTimeMillis()).build();
      final CompletableFuture<Response> answer = client.submit(request);
      final String owner = decisions.awaitFor(List.of("stalls"), Duration.ofSeconds(30)).get("stalls").get(0)
          .getInstanceId();
      responses.awaitUntil(records -> records.stream().filter(r -> r.key().equals("stalls"))
          .mapToInt(r -> r.value().getTokens().size()).sum() >= 8, Duration.ofSeconds(30));

      // When its worker stops making progress
      fleet.gpu(owner).stall();

      // Then the client's text is byte-identical to an uninterrupted run, and the outcome is cutover
      final Response response = answer.get(60, TimeUnit.SECONDS);
      assertThat(response.text()).isEqualTo(ExpectedText.of(request));
      assertThat(response.outcome()).isEqualTo(RoutingOutcome.CUTOVER);
      final List<RoutingDecision> all = decisions.awaitFor(List.of("stalls"), Duration.ofSeconds(5)).get("stalls");
      assertThat(all).extracting(RoutingDecision::getEpoch).containsExactly(1, 2);
      assertThat(all.get(1).getInstanceId()).isNotEqualTo(owner);
      assertThat(all.get(1).getReason()).contains(owner + " stalled");

      // And token-buffer answers for the sequence: every token, the second epoch, its new owner
      final HttpClient http = HttpClient.newHttpClient();
      final JsonNode sequence = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(
          URI.create(pipeline.tokenBufferUrl() + "/v1/sequences/stalls")).build(),
          HttpResponse.BodyHandlers.ofString()).body());
      assertThat(sequence.path("epoch").asInt()).isEqualTo(2);
      assertThat(sequence.path("owner").asText()).isEqualTo(all.get(1).getInstanceId());
      assertThat(sequence.path("status").asText()).isEqualTo("FINISHED");
      assertThat(sequence.path("nextIndex").asInt()).isEqualTo(response.tokens().size());
      assertThat(http.send(HttpRequest.newBuilder(URI.create(pipeline.tokenBufferUrl() + "/v1/sequences/nope"))
          .build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldFenceAStaleWorkerThatKeepsSendingAfterTheCutOver(final TestCluster.Handle cluster) throws Exception {
    final TopicCatalogue catalogue = cluster.newCatalogue();
    final ClusterSettings settings = cluster.settings(catalogue);
    try (Fleet fleet = Fleet.start(settings, 2, List.of("zone-a"), SLOW, new SimpleMeterRegistry());
        Pipeline pipeline = Pipeline.start(settings, cluster.stateDir(catalogue), false, TestTenants.UNLIMITED);
        ContractSerdes serdes = new ContractSerdes(settings.serdes());
        DecisionLog decisions = new DecisionLog(settings, serdes);
        KafkaProducer<String, TokenChunk> zombie = new KafkaProducer<>(new HashMap<>(settings.clientProperties()),
            new StringSerializer(), serdes.value(Topics.TOKENS).serializer());
        InferenceClient client = new InferenceClient(settings, serdes)) {
      Awaits.routerSees(pipeline, fleet.instanceIds());
      final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("zombie").setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("Tell a long story.").setMaxOutputTokens(64).setSeed(11)
          .setSubmittedAtMs(System.currentTimeMillis()).build();
      final CompletableFuture<Response> answer = client.submit(request);
      final String owner = decisions.awaitFor(List.of("zombie"), Duration.ofSeconds(30)).get("zombie").get(0)
          .getInstanceId();

      // Given the owner stalled and the sequence was cut over to the other instance
      fleet.gpu(owner).stall();
      await().atMost(Duration.ofSeconds(30))
          .until(() -> decisions.all().stream().anyMatch(d -> d.getSequenceId().equals("zombie")
              && d.getEpoch() == 2));

      // When the old owner wakes up and keeps sending chunks of its epoch
      for (int i = 0; i < 20; i++) {
        zombie.send(new ProducerRecord<>(catalogue.name(Topics.TOKENS), "zombie", TokenChunk.newBuilder()
            .setSequenceId("zombie").setEpoch(1).setInstanceId(owner).setStartIndex(i * 4)
            .setTokens(List.of(" ZOMBIE", " ZOMBIE", " ZOMBIE", " ZOMBIE")).setEmittedAtMs(System.currentTimeMillis())
            .build()));
      }
      zombie.flush();

      // Then none of its tokens reach the client
      final Response response = answer.get(60, TimeUnit.SECONDS);
      assertThat(response.text()).doesNotContain("ZOMBIE").isEqualTo(ExpectedText.of(request));
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldLeaveAStalledStreamOnItsInstanceUntilItGoesOnWhenCutOverIsOff(final TestCluster.Handle cluster)
      throws Exception {
    final TopicCatalogue catalogue = cluster.newCatalogue();
    final ClusterSettings settings = cluster.settings(catalogue);
    try (Fleet fleet = Fleet.start(settings, 2, List.of("zone-a"), SLOW, new SimpleMeterRegistry());
        Pipeline pipeline = Pipeline.start(settings, cluster.stateDir(catalogue), false, TestTenants.UNLIMITED,
            new RoundRobinPolicy(), false);
        ContractSerdes serdes = new ContractSerdes(settings.serdes());
        DecisionLog decisions = new DecisionLog(settings, serdes);
        RecordCollector<String, ResponseChunk> responses = new RecordCollector<>(settings,
            catalogue.name(Topics.RESPONSES), new StringDeserializer(), serdes.value(Topics.RESPONSES).deserializer());
        InferenceClient client = new InferenceClient(settings, serdes)) {
      Awaits.routerSees(pipeline, fleet.instanceIds());
      final InferenceRequest request = InferenceRequest.newBuilder().setSequenceId("waits").setTenantId("t")
          .setApiKey(TestTenants.key("t")).setPrompt("Tell a long story.").setMaxOutputTokens(64).setSeed(13)
          .setSubmittedAtMs(System.currentTimeMillis()).build();
      final CompletableFuture<Response> answer = client.submit(request);
      final String owner = decisions.awaitFor(List.of("waits"), Duration.ofSeconds(30)).get("waits").get(0)
          .getInstanceId();
      responses.awaitUntil(records -> records.stream().filter(r -> r.key().equals("waits"))
          .mapToInt(r -> r.value().getTokens().size()).sum() >= 8, Duration.ofSeconds(30));

      // Given token-buffer without cut-over, when the owner stalls for twice the 1.2 s instance timeout
      fleet.gpu(owner).stall();
      // The fault's length, not a wait for a condition: with cut-over on, this stall is cut over.
      await().pollDelay(Duration.ofMillis(2_400)).atMost(Duration.ofSeconds(5)).until(() -> true);
      fleet.gpu(owner).resume();

      // Then the stream waited for it and finished there: one attempt, the same text, no cut-over
      final Response response = answer.get(60, TimeUnit.SECONDS);
      assertThat(response.text()).isEqualTo(ExpectedText.of(request));
      assertThat(response.outcome()).isEqualTo(RoutingOutcome.DIRECT);
      assertThat(decisions.all()).filteredOn(d -> d.getSequenceId().equals("waits"))
          .extracting(RoutingDecision::getEpoch).containsExactly(1);
    }
  }
}
