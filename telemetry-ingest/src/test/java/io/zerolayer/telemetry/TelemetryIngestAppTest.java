package io.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.topic.TopicCatalogue;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The app's wiring without a broker; {@code TelemetryIngestIT} runs it against a real one. */
@Timeout(30)
class TelemetryIngestAppTest {

  // Nothing listens there: these tests never get as far as sending a record.
  private static final ClusterSettings NO_BROKER =
      ClusterSettings.plaintext("127.0.0.1:9", "mock://telemetry-ingest-app-test", TopicCatalogue.unprefixed());

  private final HttpClient client = HttpClient.newHttpClient();

  @TempDir
  Path dir;

  @Test
  void shouldFailAtStartNamingTheTargetsFileTheEntryAndTheFix() throws Exception {
    final Path file = Files.writeString(dir.resolve("targets.json"),
        "[{\"instanceId\": \"gpu-0\", \"zone\": \"zone-a\", \"engineMetricsUrl\": \"localhost:8000/metrics\"}]");
    final TelemetryIngestConfig config = new TelemetryIngestConfig(Map.of(
        TelemetryIngestConfig.HTTP_PORT, 0, TelemetryIngestConfig.TARGETS_FILE, file.toString()));

    assertThatThrownBy(() -> TelemetryIngestApp.start(NO_BROKER, config, "127.0.0.1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Scrape targets file " + file.toAbsolutePath() + ": entry 1 (instanceId \"gpu-0\"):"
            + " engineMetricsUrl \"localhost:8000/metrics\" is not an absolute http or https URL;"
            + " write it like \"http://10.0.0.5:8000/metrics\"");
  }

  @Test
  void shouldServeHealthAndCountARefusedPushInItsMetrics() throws Exception {
    try (TelemetryIngestApp app = TelemetryIngestApp.start(NO_BROKER,
        new TelemetryIngestConfig(Map.of(TelemetryIngestConfig.HTTP_PORT, 0)), "127.0.0.1")) {
      final HttpResponse<String> health = get(app.port(), "/health");
      final HttpResponse<String> refused = client.send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + app.port() + TelemetryPushEndpoint.PATH))
          .POST(HttpRequest.BodyPublishers.ofString("{\"instanceId\": \"gpu-0\"}")).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(health.body()).isEqualTo("ok");
      assertThat(refused.statusCode()).as("no pusher configured").isEqualTo(403);
      assertThat(get(app.port(), "/metrics").body())
          .contains("zerolayer_telemetry_samples_rejected_total{app=\"telemetry-ingest\",source=\"push\"} 1.0")
          .contains("zerolayer_telemetry_samples_published_total{app=\"telemetry-ingest\",source=\"push\"} 0.0")
          .doesNotContain("zerolayer_telemetry_scrape_failures_total");
    }
  }

  private HttpResponse<String> get(final int port, final String path) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
