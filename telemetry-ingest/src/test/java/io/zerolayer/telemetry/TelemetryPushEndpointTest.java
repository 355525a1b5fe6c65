package io.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.telemetry.TelemetryValidator;
import io.zerolayer.runtime.tenant.Tenant;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class TelemetryPushEndpointTest {

  private static final long NOW = 1_750_000_000_000L;
  private static final String TOKEN = "push-token-of-gpu-1";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<InstanceTelemetry> accepted = new CopyOnWriteArrayList<>();
  private final HttpClient client = HttpClient.newHttpClient();
  private Javalin http;

  @BeforeEach
  void start() {
    http = Javalin.create(config -> config.showJavalinBanner = false);
    new TelemetryPushEndpoint(new TelemetryValidator(Duration.ofSeconds(30)), PushCredentials.of(Map.of(
        Tenant.hashKey(TOKEN), Set.of("gpu-1"))), accepted::add, () -> NOW).register(http);
    http.start("127.0.0.1", 0);
  }

  @AfterEach
  void stop() {
    http.stop();
  }

  @Test
  void shouldAcceptAValidSampleAndHandItOn() throws Exception {
    final HttpResponse<String> response = post(validBody().toString());

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(accepted).singleElement().isEqualTo(InstanceTelemetry.newBuilder()
        .setInstanceId("gpu-1").setZone("zone-a").setModel("llama-3.1-8b").setSampleTimeMs(NOW - 20)
        .setGpuUtilization(0.62).setVramUsedBytes(40L << 30).setVramFragmentation(0.12)
        .setKvCacheHitRate(0.4).setKvWarmupLevel(1.0).setNcclRingLatencyMs(0.3).setTcpRetransmitRate(0.001)
        .setQueueLength(3).setRunningRequests(12).setDecodeTokensPerS(41.5).setTokenIntervalStddevMs(4.2)
        .setAllocationErrors(0).build());
  }

  @Test
  void shouldCarryWhatEachRunningRequestMayStillGenerateWhereTheInstanceSendsIt() throws Exception {
    final ObjectNode body = validBody();
    body.putArray("runningTokensToLimit").add(120).add(8);

    assertThat(post(body.toString()).statusCode()).isEqualTo(202);
    assertThat(accepted).singleElement().extracting(InstanceTelemetry::getRunningTokensToLimit)
        .isEqualTo(List.of(120, 8));
  }

  @Test
  void shouldCarryTheBatchAnInstanceSaysItRunsAndLeaveItUnsaidWhenAbsent() throws Exception {
    final ObjectNode body = validBody();
    body.put("batchSlots", 32);

    assertThat(post(body.toString()).statusCode()).isEqualTo(202);
    assertThat(post(validBody().toString()).statusCode()).isEqualTo(202);
    assertThat(accepted).extracting(InstanceTelemetry::getBatchSlots).containsExactly(32, 0);
  }

  @Test
  void shouldRefuseASampleNamingEveryMissingUnknownMistypedAndImpossibleField() throws Exception {
    final ObjectNode body = validBody();
    body.remove("zone");
    body.remove("allocationErrors");
    body.put("gpuUtilization", 1.3);
    body.put("queueLength", "three");
    body.put("runningRequests", 2.5);
    body.put("sampleTimeMs", NOW + 60_000);
    body.put("gpuTemperature", 71);
    body.putArray("runningTokensToLimit").add(12).add("x");
    body.put("batchSlots", -4);

    final HttpResponse<String> response = post(body.toString());

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(problems(response)).containsExactly(
        "zone is missing",
        "queueLength must be a whole number in 32-bit range, not \"three\"",
        "runningRequests must be a whole number in 32-bit range, not 2.5",
        "allocationErrors is missing",
        "runningTokensToLimit must be an array of whole numbers in 32-bit range, not [12,\"x\"]",
        "gpuTemperature is not a telemetry field",
        "gpuUtilization is 1.3, outside [0, 1]",
        "batchSlots is -4.0, negative",
        "sampleTimeMs is 60000 ms from now, beyond the allowed 30000 ms: check the instance's clock");
    assertThat(accepted).isEmpty();
  }

  @Test
  void shouldRefuseABodyThatIsNotAJsonObject() throws Exception {
    final HttpResponse<String> notJson = post("gpuUtilization=0.5");
    final HttpResponse<String> array = post("[1, 2]");

    assertThat(notJson.statusCode()).isEqualTo(400);
    assertThat(problems(notJson)).singleElement().asString().startsWith("body is not JSON: ");
    assertThat(array.statusCode()).isEqualTo(400);
    assertThat(problems(array)).containsExactly("body must be a JSON object");
    assertThat(accepted).isEmpty();
  }

  @Test
  void shouldRefuseASampleWithoutAKnownTokenOrOfAnInstanceItsTokenMayNotSpeakFor() throws Exception {
    final HttpResponse<String> anonymous = post(validBody().toString(), null);
    final HttpResponse<String> unknown = post(validBody().toString(), "guessed");
    final HttpResponse<String> phantom = post(validBody().put("instanceId", "gpu-99").toString());

    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(problems(anonymous)).singleElement().asString().startsWith("no push token");
    assertThat(unknown.statusCode()).isEqualTo(401);
    assertThat(phantom.statusCode()).isEqualTo(403);
    assertThat(problems(phantom)).containsExactly("this push token may send samples of gpu-1 only, not of gpu-99");
    assertThat(accepted).isEmpty();
  }

  @Test
  void shouldRefuseEveryPushWhenNoPusherIsConfigured() throws Exception {
    final Javalin closed = Javalin.create(config -> config.showJavalinBanner = false);
    new TelemetryPushEndpoint(new TelemetryValidator(Duration.ofSeconds(30)), PushCredentials.NONE, accepted::add,
        () -> NOW).register(closed);
    closed.start("127.0.0.1", 0);
    try {
      final HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
          + closed.port() + TelemetryPushEndpoint.PATH)).header("Authorization", "Bearer " + TOKEN)
          .POST(HttpRequest.BodyPublishers.ofString(validBody().toString())).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).isEqualTo(403);
      assertThat(problems(response)).singleElement().asString().contains("telemetry.push.credentials.file");
    } finally {
      closed.stop();
    }
  }

  private HttpResponse<String> post(final String body) throws Exception {
    return post(body, TOKEN);
  }

  private HttpResponse<String> post(final String body, final String token) throws Exception {
    final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port()
        + TelemetryPushEndpoint.PATH)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> problems(final HttpResponse<String> response) throws Exception {
    final JsonNode problems = JSON.readTree(response.body()).get("problems");
    return JSON.convertValue(problems, JSON.getTypeFactory().constructCollectionType(List.class, String.class));
  }

  private static ObjectNode validBody() {
    return JSON.createObjectNode()
        .put("instanceId", "gpu-1").put("zone", "zone-a").put("model", "llama-3.1-8b").put("sampleTimeMs", NOW - 20)
        .put("gpuUtilization", 0.62).put("vramUsedBytes", 40L << 30).put("vramFragmentation", 0.12)
        .put("kvCacheHitRate", 0.4).put("kvWarmupLevel", 1.0).put("ncclRingLatencyMs", 0.3)
        .put("tcpRetransmitRate", 0.001).put("queueLength", 3).put("runningRequests", 12)
        .put("decodeTokensPerS", 41.5).put("tokenIntervalStddevMs", 4.2).put("allocationErrors", 0);
  }
}
