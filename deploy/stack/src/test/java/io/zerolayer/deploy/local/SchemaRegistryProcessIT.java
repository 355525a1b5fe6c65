package io.zerolayer.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SchemaRegistryProcessIT {

  @TempDir
  Path workDir;

  @Test
  void shouldServeTheConfluentApiWithBackwardCompatibilityAndLeaveNoProcessAfterClose() throws Exception {
    final Path jar = registryJarOrSkip();
    final HttpClient http = HttpClient.newHttpClient();
    final long pid;
    try (SchemaRegistryProcess registry = SchemaRegistryProcess.start(workDir, jar,
        SchemaRegistryProcess.DEFAULT_STARTUP_TIMEOUT)) {
      pid = registry.pid();
      assertThat(registry.url()).matches("http://127\\.0\\.0\\.1:\\d+/apis/ccompat/v7");

      final HttpResponse<String> subjects = get(http, registry.url() + "/subjects");
      final HttpResponse<String> config = get(http, registry.url() + "/config");

      assertThat(subjects.statusCode()).isEqualTo(200);
      assertThat(subjects.body()).isEqualTo("[]");
      assertThat(config.body()).contains("BACKWARD");
    }
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
  }

  private static Path registryJarOrSkip() {
    try {
      return RegistryJar.locate();
    } catch (final LocalStackException e) {
      Assumptions.abort("The registry jar is not built: " + e.getMessage());
      throw e;
    }
  }

  private static HttpResponse<String> get(final HttpClient http, final String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
