package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zerolayer.client.InferenceClient;
import io.zerolayer.client.Response;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.deploy.stack.PipelineNames;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.runtime.StreamsApp;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.SingleBroker;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import io.zerolayer.tokenbuffer.TokenBufferApp;
import io.zerolayer.tokenbuffer.TokenBufferConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestCluster.class)
class SequenceQueryIT {

  private static final int REQUESTS = 12;
  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void shouldAnswerEverySequenceFromEitherOfTwoTokenBufferInstancesByForwarding(final TestCluster.Handle cluster)
      throws Exception {
    // Given the pipeline's token-buffer and a second instance of it in the same group
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard()).start()) {
      final StreamsApp second = rig.open(TokenBufferApp.start(rig.settings(), new TokenBufferConfig(
          SingleBroker.settings(TokenBufferConfig.PREFIX, Map.of(
          TokenBufferConfig.APPLICATION_ID, PipelineNames.tokenBufferApplicationId(rig.catalogue()),
          TokenBufferConfig.STATE_DIR, rig.stateDir().resolve("token-buffer-2").toString(),
          TokenBufferConfig.HTTP_PORT, 0, TokenBufferConfig.QUERY_TOKEN, rig.pipeline().sequenceQueryToken()))),
          "127.0.0.1", TestTenants.UNLIMITED));
      final InferenceClient client = rig.client();
      second.awaitRunning(Duration.ofSeconds(90));
      Awaitility.await().atMost(Duration.ofSeconds(60)).until(() ->
          !second.streams().metadataForLocalThreads().iterator().next().activeTasks().isEmpty());

      // When requests are answered
      final List<InferenceRequest> requests = IntStream.range(0, REQUESTS).mapToObj(SequenceQueryIT::request).toList();
      final List<CompletableFuture<Response>> answers = new ArrayList<>();
      requests.forEach(request -> answers.add(client.submit(request)));
      final List<Response> responses = new ArrayList<>();
      for (final CompletableFuture<Response> answer : answers) {
        responses.add(answer.get(2, TimeUnit.MINUTES));
      }

      // Then either instance answers for every sequence with its whole text, to a caller with the token
      final String queryToken = rig.pipeline().sequenceQueryToken();
      final List<String> bases = List.of(rig.pipeline().tokenBufferUrl(), "http://127.0.0.1:" + second.server().port());
      for (final String base : bases) {
        for (int i = 0; i < REQUESTS; i++) {
          final String id = requests.get(i).getSequenceId();
          final String text = responses.get(i).text();
          Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            final JsonNode sequence = get(base + "/v1/sequences/" + id, queryToken);
            assertThat(sequence.get("status").asText()).isEqualTo("FINISHED");
            final StringBuilder tokens = new StringBuilder();
            sequence.get("tokens").forEach(token -> tokens.append(token.asText()));
            assertThat(tokens.toString()).isEqualTo(text);
          });
        }
      }
      // And to the tenant that sent the request, with its own API key, but to no other tenant and no one else
      for (final String base : bases) {
        for (final InferenceRequest request : requests) {
          final String url = base + "/v1/sequences/" + request.getSequenceId();
          assertThat(get(url, TestTenants.key("tenant-0")).get("tenantId").asText()).isEqualTo("tenant-0");
          assertThat(status(url, TestTenants.key("tenant-1"))).as("another tenant").isEqualTo(404);
        }
        assertThat(status(base + "/v1/sequences/" + requests.get(0).getSequenceId(), null)).isEqualTo(401);
        assertThat(status(base + "/v1/sequences/" + requests.get(0).getSequenceId(), "guessed")).isEqualTo(401);
      }
    }
  }

  private JsonNode get(final String url, final String token) throws Exception {
    final HttpResponse<String> answer = send(url, token);
    assertThat(answer.statusCode()).as("GET %s: %s", url, answer.body()).isEqualTo(200);
    return json.readTree(answer.body());
  }

  private int status(final String url, final String token) throws Exception {
    return send(url, token).statusCode();
  }

  private HttpResponse<String> send(final String url, final String token) throws Exception {
    final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static InferenceRequest request(final int i) {
    return InferenceRequest.newBuilder()
        .setSequenceId("query-" + i)
        .setTenantId("tenant-0")
        .setApiKey(TestTenants.key("tenant-0"))
        .setPrompt("Sequence " + i + " for the query test.")
        .setMaxOutputTokens(16)
        .setSeed(i)
        .setSubmittedAtMs(System.currentTimeMillis())
        .build();
  }
}
