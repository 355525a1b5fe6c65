package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.anthropic.models.messages.MessageCreateParams;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.topic.Topic;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What must never reach a topic through the gateway: a tenant's API key, and a request the
 * gateway could not read.
 */
@ExtendWith(TestCluster.class)
class GatewayGuardIT {

  private static final String TENANT = "tenant-0";
  private static final String CARELESS = "tenant-1";

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldPutNoApiKeyOnAnyTopic(final TestCluster.Handle cluster) throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard())
        .tenants(GatewayClients.tenants(List.of(TENANT))).gateway().start()) {
      final List<RecordCollector<byte[], byte[]>> topics = new ArrayList<>();
      for (final Topic<?, ?> topic : rig.catalogue().all()) {
        topics.add(rig.collectRaw(topic));
      }
      final var responses = rig.responses();
      final String key = TestTenants.key(TENANT);

      // When requests go through both APIs, streamed and whole, and one with a body the gateway refuses
      final var anthropic = GatewayClients.anthropic(rig.gateway().port(), key);
      final MessageCreateParams params = MessageCreateParams.builder().model(GatewayClients.MODEL).maxTokens(16)
          .addUserMessage("Where is my key?").build();
      anthropic.messages().create(params);
      try (var stream = anthropic.messages().createStreaming(params)) {
        stream.stream().forEach(event -> { });
      }
      GatewayClients.openAi(rig.gateway().port(), key, GatewayClients.MODEL, 16)
          .chat(ChatRequest.builder().messages(UserMessage.from("And now?")).build());
      send(rig.gateway().port(), key, "{\"model\": \"" + GatewayClients.MODEL + "\", \"messages\": 5}");
      responses.awaitUntil(records -> records.stream().filter(r -> r.value().getLast()).count() >= 3,
          Duration.ofSeconds(60));

      // Then no record of any topic, the dead-letter topic included, holds the key
      final byte[] needle = key.getBytes(StandardCharsets.UTF_8);
      int scanned = 0;
      for (final RecordCollector<byte[], byte[]> topic : topics) {
        for (final ConsumerRecord<byte[], byte[]> record : topic.records()) {
          scanned++;
          assertThat(contains(record.value(), needle) || contains(record.key(), needle)
              || Arrays.stream(record.headers().toArray()).anyMatch(h -> contains(h.value(), needle)))
              .as("record %s-%d@%d holds the API key", record.topic(), record.partition(), record.offset())
              .isFalse();
        }
      }
      assertThat(scanned).isGreaterThan(100);
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldRefuseEachBadBodyWithA4xxThatSaysWhyAndPublishNothingOfIt(final TestCluster.Handle cluster)
      throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(1, List.of("zone-a"), GpuProfile.standard())
        .tenants(GatewayClients.tenants(List.of(TENANT, CARELESS))).gateway().start()) {
      final RecordCollector<String, InferenceRequest> requests = rig.collect(Topics.REQUESTS);
      final int port = rig.gateway().port();
      final String model = GatewayClients.MODEL;
      final String key = TestTenants.key(CARELESS);

      // When bodies the gateway cannot read are sent, on each API
      final Map<String, String> chat = Map.of(
          "not json {", "not valid JSON",
          "[\"a JSON array\"]", "JSON object",
          "{\"model\": 5, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}", "'model' must be",
          "{\"model\": \"" + model + "\"}", "'messages' is required",
          "{\"model\": \"" + model + "\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"max_tokens\": -3}",
          "'max_tokens' is -3",
          "{\"model\": \"" + model + "\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"stream\": \"yes\"}",
          "'stream' must be true or false");
      for (final Map.Entry<String, String> bad : chat.entrySet()) {
        final HttpResponse<String> answer = send(port, key, bad.getKey());
        assertThat(answer.statusCode()).as(bad.getKey()).isEqualTo(400);
        assertThat(answer.body()).as(bad.getKey()).contains(bad.getValue()).contains("invalid_request_error");
      }
      final HttpResponse<String> noLimit = post(port, "/v1/messages", key,
          "{\"model\": \"" + model + "\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
      assertThat(noLimit.statusCode()).isEqualTo(400);
      assertThat(noLimit.body()).contains("'max_tokens' is required").contains("\"type\":\"error\"");
      final HttpResponse<String> huge = send(port, key, "{\"model\": \"" + model + "\", \"messages\": [{\"role\":"
          + " \"user\", \"content\": \"" + "x".repeat(10 << 20) + "\"}]}");
      assertThat(huge.statusCode()).isEqualTo(413);
      assertThat(huge.body()).contains("larger than");

      // Then the gateway still serves, and the only request of that tenant on the ingress topic is the good one
      final HttpResponse<String> good = send(port, key, "{\"model\": \"" + model + "\", \"max_tokens\": 4,"
          + " \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
      assertThat(good.statusCode()).as(good.body()).isEqualTo(200);
      final String goodId = good.headers().firstValue("x-request-id").orElseThrow();
      requests.awaitUntil(records -> records.stream().anyMatch(r -> r.key().equals(goodId)), Duration.ofSeconds(30));
      await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
          assertThat(requests.records()).filteredOn(r -> r.value().getTenantId().equals(CARELESS))
              .extracting(ConsumerRecord::key).containsExactly(goodId));
    }
  }

  private static boolean contains(final byte[] haystack, final byte[] needle) {
    if (haystack == null) {
      return false;
    }
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static HttpResponse<String> send(final int port, final String key, final String body) throws Exception {
    return post(port, "/v1/chat/completions", key, body);
  }

  /** A hand-made request: these bodies are the ones no SDK would send. */
  private static HttpResponse<String> post(final int port, final String path, final String key, final String body)
      throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("Authorization", "Bearer " + key).header("x-api-key", key).header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
