package io.zerolayer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class MetricsServerTest {

  private final HttpClient client = HttpClient.newHttpClient();

  @Test
  void shouldBeReadyOnceItServesWhenTheAppSetsNoCheck() throws Exception {
    try (MetricsServer server = new MetricsServer("test", http -> { }).start("127.0.0.1", 0)) {
      final HttpResponse<String> ready = get(server, "/ready");

      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.body()).isEqualTo("ready");
    }
  }

  @Test
  void shouldAnswer503WithWhatTheAppWaitsForUntilItsCheckPasses() throws Exception {
    // Given an app that says what it waits for
    final AtomicBoolean caughtUp = new AtomicBoolean();
    try (MetricsServer server = new MetricsServer("test", http -> { }).readyWhen(caughtUp::get, "reading the heatmap")
        .start("127.0.0.1", 0)) {
      // When it is asked before and after its check passes
      final HttpResponse<String> before = get(server, "/ready");
      caughtUp.set(true);
      final HttpResponse<String> after = get(server, "/ready");

      // Then it answers 503 with the reason, then 200; /health answers all along
      assertThat(before.statusCode()).isEqualTo(503);
      assertThat(before.body()).isEqualTo("reading the heatmap");
      assertThat(after.statusCode()).isEqualTo(200);
      assertThat(get(server, "/health").body()).isEqualTo("ok");
    }
  }

  private HttpResponse<String> get(final MetricsServer server, final String path) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
