package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.telemetry.RunningRequestsPage;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.telemetry.TelemetryIngestApp;
import io.zerolayer.telemetry.TelemetryIngestConfig;
import io.zerolayer.telemetry.TelemetryPushEndpoint;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.RecordCollector;
import io.zerolayer.testsupport.TestCluster;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * telemetry-ingest on the real broker and registry: it scrapes a stand-in vLLM server and DCGM
 * exporter serving real pages (src/test/resources/metrics, see SOURCES.md there), and takes
 * pushed samples.
 */
@ExtendWith(TestCluster.class)
class TelemetryIngestIT {

  private static final String PUSH_TOKEN = "push-token-of-gpu-3";

  private static final String VLLM_V1 = "vllm-v1-lmswitch-fixture.prom";
  private static final String DCGM_A100 = "dcgm-exporter-nvidia-docs-a100-mig.prom";
  private static final String WAITING = "vllm:num_requests_waiting{engine=\"0\","
      + "model_name=\"deepseek-v4-flash-vision-exp-ablit-dual\"} ";
  private static final String RUNNING = "vllm:num_requests_running{engine=\"0\","
      + "model_name=\"deepseek-v4-flash-vision-exp-ablit-dual\"} ";
  private static final long MIB = 1024 * 1024;

  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldPublishWhatTheScrapedPagesOfAVllmServerAndItsGpuSay(final TestCluster.Handle cluster,
      @TempDir final Path dir) throws Exception {
    final AtomicReference<String> enginePage = new AtomicReference<>(sample(VLLM_V1));
    // The page of the worker in front of the server: nothing runs through it at first
    final AtomicReference<Map<String, Integer>> running = new AtomicReference<>(Map.of());
    final Javalin server = Javalin.create(config -> config.showJavalinBanner = false)
        .get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4").result(enginePage.get()))
        .get("/dcgm/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4").result(sample(DCGM_A100)))
        .get(RunningRequestsPage.PATH, ctx -> ctx.result(RunningRequestsPage.render(running.get())))
        .start("127.0.0.1", 0);
    final String base = "http://127.0.0.1:" + server.port();
    final Path targets = Files.writeString(dir.resolve("targets.json"), "[{\"instanceId\": \"gpu-7\","
        + " \"zone\": \"zone-b\", \"engineMetricsUrl\": \"" + base + "/metrics\", \"gpuMetricsUrl\": \"" + base
        + "/dcgm/metrics\", \"gpuIndices\": [\"0\"], \"workerRunningUrl\": \"" + base + RunningRequestsPage.PATH
        + "\"}]");
    try (PipelineRig rig = PipelineRig.on(cluster).withoutPipeline().start()) {
      final RecordCollector<String, InstanceTelemetry> telemetry = rig.collect(Topics.TELEMETRY);
      final TelemetryIngestApp app = rig.open(TelemetryIngestApp.start(rig.settings(), config(Map.of(
            TelemetryIngestConfig.TARGETS_FILE, targets.toString(),
            TelemetryIngestConfig.SCRAPE_INTERVAL_MS, 200L)), "127.0.0.1"));
      // Then the first sample is the pages' whole history: every counter since the server started
      final InstanceTelemetry first = of(telemetry.awaitUntil(all -> !of(all, "gpu-7").isEmpty(),
          Duration.ofSeconds(30)), "gpu-7").get(0);
      assertThat(first.getZone()).isEqualTo("zone-b");
      assertThat(first.getModel()).isEqualTo("deepseek-v4-flash-vision-exp-ablit-dual");
      assertThat(first.getInstanceId()).isEqualTo("gpu-7");
      assertThat(first.getSampleTimeMs()).isCloseTo(System.currentTimeMillis(), within(30_000L));
      assertThat(first.getQueueLength()).isZero();
      assertThat(first.getRunningRequests()).isZero();
      assertThat(first.getKvCacheHitRate()).isEqualTo(3_241_216.0 / 3_675_428.0);
      assertThat(first.getDecodeTokensPerS()).isEqualTo(44_969 / 1419.8547863351414);
      // GR_ENGINE_ACTIVE of the whole GPU 0; the MIG instance's series are skipped
      assertThat(first.getGpuUtilization()).isEqualTo(0.995630);
      assertThat(first.getVramUsedBytes()).isEqualTo(4845 * MIB);
      assertThat(first.getVramFragmentation()).isZero();
      assertThat(first.getKvWarmupLevel()).isEqualTo(1.0);
      assertThat(first.getRunningTokensToLimit()).isEmpty();

      // When requests queue up on the server, with no token generated since, and the worker runs two of them
      running.set(Map.of("acme-1", 480, "acme-2", 16));
      enginePage.set(withValue(withValue(sample(VLLM_V1), WAITING, "7.0"), RUNNING, "12.0"));

      // Then a later sample shows the queue, and an empty window of tokens and cache lookups
      final InstanceTelemetry queued = telemetry.awaitUntil(all -> of(all, "gpu-7").stream()
          .anyMatch(t -> t.getQueueLength() == 7), Duration.ofSeconds(30)).stream().map(ConsumerRecord::value)
          .filter(t -> t.getQueueLength() == 7).findFirst().orElseThrow();
      assertThat(queued.getRunningRequests()).isEqualTo(12);
      assertThat(queued.getRunningTokensToLimit()).containsExactlyInAnyOrder(480, 16);
      assertThat(queued.getDecodeTokensPerS()).isZero();
      assertThat(queued.getKvCacheHitRate()).isZero();
      assertThat(queued.getVramUsedBytes()).isEqualTo(4845 * MIB);
      assertThat(queued.getSampleTimeMs()).isGreaterThan(first.getSampleTimeMs());
      assertThat(metrics(app.port())).contains("zerolayer_telemetry_scrape_failures_total{app=\"telemetry-ingest\","
          + "target=\"gpu-7\"} 0.0");
    } finally {
      server.stop();
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldPublishAPushedSampleAndRefuseAnImpossibleOneWithItsReason(final TestCluster.Handle cluster,
      @TempDir final Path dir) throws Exception {
    // Given a telemetry-ingest that takes samples of gpu-3 from the bearer of its push token
    final Path pushers = Files.writeString(dir.resolve("pushers.json"), "{\"pushers\": [{\"tokenSha256\": \""
        + Tenant.hashKey(PUSH_TOKEN) + "\", \"instances\": [\"gpu-3\"]}]}");
    try (PipelineRig rig = PipelineRig.on(cluster).withoutPipeline().start()) {
      final RecordCollector<String, InstanceTelemetry> telemetry = rig.collect(Topics.TELEMETRY);
      final TelemetryIngestApp app = rig.open(TelemetryIngestApp.start(rig.settings(), config(Map.of(
          TelemetryIngestConfig.PUSH_CREDENTIALS_FILE, pushers.toString())), "127.0.0.1"));
      // When a worker pushes a sample that cannot be true, then one that can, of the same instance
      final long now = System.currentTimeMillis();
      final HttpResponse<String> refused = push(app.port(), pushed("gpu-3", now).put("gpuUtilization", 1.7));
      final HttpResponse<String> accepted = push(app.port(), pushed("gpu-3", now + 1));

      // Then the first is answered 400 with the reason and the second 202
      assertThat(refused.statusCode()).isEqualTo(400);
      assertThat(json.readTree(refused.body()).get("problems").get(0).asText())
          .isEqualTo("gpuUtilization is 1.7, outside [0, 1]");
      assertThat(json.readTree(refused.body()).get("problems").size()).isOne();
      assertThat(accepted.statusCode()).isEqualTo(202);

      // and only the second is on the topic: same key, same partition, so the refused one would come first
      final List<InstanceTelemetry> published = of(telemetry.awaitUntil(all -> !of(all, "gpu-3").isEmpty(),
          Duration.ofSeconds(30)), "gpu-3");
      assertThat(published).containsExactly(InstanceTelemetry.newBuilder()
          .setInstanceId("gpu-3").setZone("zone-a").setModel("llama-3.1-8b").setSampleTimeMs(now + 1)
          .setGpuUtilization(0.62).setVramUsedBytes(40L << 30).setVramFragmentation(0.12)
          .setKvCacheHitRate(0.4).setKvWarmupLevel(1.0).setNcclRingLatencyMs(0.3).setTcpRetransmitRate(0.001)
          .setQueueLength(3).setRunningRequests(12).setDecodeTokensPerS(41.5).setTokenIntervalStddevMs(4.2)
          .setAllocationErrors(0).build());
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(metrics(app.port()))
          .contains("zerolayer_telemetry_samples_published_total{app=\"telemetry-ingest\",source=\"push\"} 1.0")
          .contains("zerolayer_telemetry_samples_rejected_total{app=\"telemetry-ingest\",source=\"push\"} 1.0"));
    }
  }

  private static TelemetryIngestConfig config(final Map<String, Object> overrides) {
    final Map<String, Object> values = new HashMap<>(overrides);
    values.put(TelemetryIngestConfig.HTTP_PORT, 0);
    return new TelemetryIngestConfig(values);
  }

  /** The samples keyed by the instance id, in the order read. */
  private static List<InstanceTelemetry> of(final List<ConsumerRecord<String, InstanceTelemetry>> records,
      final String instanceId) {
    return records.stream().filter(r -> instanceId.equals(r.key())).map(ConsumerRecord::value).toList();
  }

  private ObjectNode pushed(final String instanceId, final long sampleTimeMs) {
    return json.createObjectNode()
        .put("instanceId", instanceId).put("zone", "zone-a").put("model", "llama-3.1-8b")
        .put("sampleTimeMs", sampleTimeMs).put("gpuUtilization", 0.62).put("vramUsedBytes", 40L << 30)
        .put("vramFragmentation", 0.12).put("kvCacheHitRate", 0.4).put("kvWarmupLevel", 1.0)
        .put("ncclRingLatencyMs", 0.3).put("tcpRetransmitRate", 0.001).put("queueLength", 3)
        .put("runningRequests", 12).put("decodeTokensPerS", 41.5).put("tokenIntervalStddevMs", 4.2)
        .put("allocationErrors", 0);
  }

  private HttpResponse<String> push(final int port, final ObjectNode body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + TelemetryPushEndpoint.PATH))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + PUSH_TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  private String metrics(final int port) throws Exception {
    final HttpResponse<String> answer = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(200);
    return answer.body();
  }

  private static String sample(final String file) {
    try (InputStream in = Objects.requireNonNull(TelemetryIngestIT.class.getResourceAsStream("/metrics/" + file),
        file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (final IOException e) {
      throw new IllegalStateException("Cannot read the sample " + file, e);
    }
  }

  /** The page with one sample line's value changed, as a later scrape of the same server shows it. */
  private static String withValue(final String page, final String series, final String value) {
    final int start = page.indexOf("\n" + series);
    assertThat(start).as("sample line %s", series).isNotNegative();
    final int end = page.indexOf('\n', start + 1);
    return page.substring(0, start + 1) + series + value + page.substring(end);
  }
}
