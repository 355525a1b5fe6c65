package io.zerolayer.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScrapeTargetsFileTest {

  @TempDir
  Path dir;

  @Test
  void shouldReadEveryMemberOfAFullEntryAndDefaultTheOptionalOnesOfAMinimalOne() throws IOException {
    final Path file = write("""
        [
          {"instanceId": "gpu-0", "zone": "zone-a", "model": "llama-3.1-8b",
           "engineMetricsUrl": "http://10.0.0.5:8000/metrics",
           "gpuMetricsUrl": "http://10.0.0.5:9400/metrics", "gpuIndices": ["0", 1],
           "hostMetricsUrl": "https://10.0.0.5:9100/metrics", "workerRunningUrl": "http://10.0.0.5:8086/running"},
          {"instanceId": "gpu-1", "zone": "zone-b", "engineMetricsUrl": "http://10.0.1.7:8000/metrics"}
        ]
        """);

    final List<ScrapeTarget> targets = ScrapeTargetsFile.read(file);

    assertThat(targets).containsExactly(
        ScrapeTarget.of("gpu-0", "zone-a", URI.create("http://10.0.0.5:8000/metrics"))
            .withModel("llama-3.1-8b")
            .withGpuMetrics(URI.create("http://10.0.0.5:9400/metrics"), "0", "1")
            .withHostMetrics(URI.create("https://10.0.0.5:9100/metrics"))
            .withWorkerRunning(URI.create("http://10.0.0.5:8086/running")),
        ScrapeTarget.of("gpu-1", "zone-b", URI.create("http://10.0.1.7:8000/metrics")));
  }

  @Test
  void shouldReadEveryGpuOfTheExporterWhenAnEntryNamesNone() throws IOException {
    final Path file = write("""
        [{"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "http://h:8000/metrics",
          "gpuMetricsUrl": "http://h:9400/metrics"}]
        """);

    assertThat(ScrapeTargetsFile.read(file)).singleElement()
        .satisfies(target -> assertThat(target.gpus()).isEmpty())
        .satisfies(target -> assertThat(target.gpuMetrics()).contains(URI.create("http://h:9400/metrics")));
  }

  @Test
  void shouldNameTheFileTheEntryAndTheFixWhenARequiredMemberIsMissing() throws IOException {
    final Path file = write("""
        [{"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "http://h:8000/metrics"},
         {"instanceId": "gpu-1", "engineMetricsUrl": "http://h:8001/metrics"}]
        """);

    assertThatThrownBy(() -> ScrapeTargetsFile.read(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Scrape targets file " + file.toAbsolutePath() + ": entry 2 (instanceId \"gpu-1\"):"
            + " zone is missing; add it, e.g. \"zone\": \"zone-a\"");
  }

  @Test
  void shouldAskForTheEngineUrlWhenAnEntryHasNone() throws IOException {
    final Path file = write("[{\"instanceId\": \"gpu-0\", \"zone\": \"zone-a\"}]");

    assertThatThrownBy(() -> ScrapeTargetsFile.read(file))
        .hasMessageContaining("entry 1 (instanceId \"gpu-0\"): engineMetricsUrl is missing; add the inference"
            + " server's /metrics URL, e.g. \"engineMetricsUrl\": \"http://10.0.0.5:8000/metrics\"");
  }

  @Test
  void shouldRefuseAUrlThatIsNotAnAbsoluteHttpUrlAndShowTheFormExpected() throws IOException {
    final Path noScheme = write("""
        [{"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "10.0.0.5:8000/metrics"}]
        """);
    final Path wrongScheme = write("""
        [{"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "http://h:8000/metrics",
          "gpuMetricsUrl": "ftp://h/metrics"}]
        """);
    final Path malformed = write("""
        [{"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "http://h:8000/metrics",
          "hostMetricsUrl": "http://h:9100/me trics"}]
        """);

    assertThatThrownBy(() -> ScrapeTargetsFile.read(noScheme)).hasMessageContaining("entry 1 (instanceId \"gpu-0\"):"
        + " engineMetricsUrl \"10.0.0.5:8000/metrics\" is not an absolute http or https URL;"
        + " write it like \"http://10.0.0.5:8000/metrics\"");
    assertThatThrownBy(() -> ScrapeTargetsFile.read(wrongScheme)).hasMessageContaining(
        "gpuMetricsUrl \"ftp://h/metrics\" is not an absolute http or https URL; write it like"
            + " \"http://10.0.0.5:9400/metrics\"");
    assertThatThrownBy(() -> ScrapeTargetsFile.read(malformed)).hasMessageContaining(
        "hostMetricsUrl \"http://h:9100/me trics\" is not an absolute http or https URL");
  }

  @Test
  void shouldRefuseAMisspeltMemberRatherThanIgnoreIt() throws IOException {
    final Path file = write("""
        [{"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "http://h:8000/metrics",
          "gpuMetricUrl": "http://h:9400/metrics"}]
        """);

    assertThatThrownBy(() -> ScrapeTargetsFile.read(file)).hasMessageContaining("\"gpuMetricUrl\" is not a target"
        + " member; the members are instanceId, zone, model, engineMetricsUrl, gpuMetricsUrl, gpuIndices,"
        + " hostMetricsUrl, workerRunningUrl");
  }

  @Test
  void shouldRefuseGpuIndicesWithoutAnExporterOrThatAreNotIndices() throws IOException {
    final Path withoutExporter = write("""
        [{"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "http://h:8000/metrics", "gpuIndices": [0]}]
        """);
    final Path notIndices = write("""
        [{"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "http://h:8000/metrics",
          "gpuMetricsUrl": "http://h:9400/metrics", "gpuIndices": "0,1"}]
        """);

    assertThatThrownBy(() -> ScrapeTargetsFile.read(withoutExporter)).hasMessageContaining(
        "gpuIndices needs gpuMetricsUrl, the DCGM exporter they are read from; add it or remove gpuIndices");
    assertThatThrownBy(() -> ScrapeTargetsFile.read(notIndices)).hasMessageContaining(
        "gpuIndices must be an array of DCGM gpu indices, e.g. [\"0\", \"1\"]");
  }

  @Test
  void shouldRefuseTwoEntriesForOneInstance() throws IOException {
    final Path file = write("""
        [{"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "http://h:8000/metrics"},
         {"instanceId": "gpu-0", "zone": "zone-a", "engineMetricsUrl": "http://h:8001/metrics"}]
        """);

    assertThatThrownBy(() -> ScrapeTargetsFile.read(file)).hasMessageContaining(
        "entry 2: instanceId \"gpu-0\" is also entry 1's; give each instance its own id");
  }

  @Test
  void shouldSayWhatIsWrongWithAFileThatIsNotAListOfTargets() throws IOException {
    final Path object = write("{\"targets\": []}");
    final Path empty = write("[]");
    final Path notJson = write("[{\"instanceId\": \"gpu-0\",}]");
    final Path missing = dir.resolve("absent.json");

    assertThatThrownBy(() -> ScrapeTargetsFile.read(object)).hasMessageContaining(
        "its top level is a JSON object, not an array; write [{\"instanceId\": ..., \"zone\": ...,");
    assertThatThrownBy(() -> ScrapeTargetsFile.read(empty)).hasMessageContaining(
        "it lists no target; add one, or leave telemetry.targets.file empty to take telemetry by push only");
    assertThatThrownBy(() -> ScrapeTargetsFile.read(notJson)).hasMessageContaining("it is not JSON (")
        .hasMessageContaining("at line 1); write a JSON array of targets");
    assertThatThrownBy(() -> ScrapeTargetsFile.read(missing))
        .hasMessageStartingWith("Scrape targets file " + missing.toAbsolutePath() + ": it cannot be read (")
        .hasMessageContaining("point telemetry.targets.file (ZEROLAYER_TELEMETRY_TARGETS_FILE) at an existing file");
  }

  private Path write(final String json) throws IOException {
    return Files.writeString(Files.createTempFile(dir, "targets", ".json"), json);
  }
}
