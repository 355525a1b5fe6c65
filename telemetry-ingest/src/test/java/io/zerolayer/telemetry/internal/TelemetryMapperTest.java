package io.zerolayer.telemetry.internal;

import static io.zerolayer.telemetry.MetricsSamples.scrape;
import static io.zerolayer.telemetry.MetricsSamples.text;
import static io.zerolayer.telemetry.MetricsSamples.withValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.InstanceTelemetry;
import io.zerolayer.contract.telemetry.RunningRequestsPage;
import io.zerolayer.telemetry.MetricsSamples;
import io.zerolayer.telemetry.ScrapeTarget;
import io.zerolayer.telemetry.TelemetryFields;
import io.zerolayer.contract.telemetry.TelemetryValidator;
import io.zerolayer.telemetry.prometheus.PrometheusTextParser;
import io.zerolayer.telemetry.prometheus.Scrape;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TelemetryMapperTest {

  private static final long NOW = 1_750_000_000_000L;
  /** What no page of a server or its host gives, nor, without a worker's page, what runs there. */
  private static final Set<String> UNOBSERVED = with(TelemetryFields.NOT_SCRAPABLE, TelemetryFields.FROM_WORKER);
  private static final ScrapeTarget TARGET = ScrapeTarget.of("gpu-7", "zone-b", URI.create("http://127.0.0.1:8000/metrics"));

  @Test
  void shouldMapAVllmV1ServerWithItsA100AndHostFromTheirFirstScrape() {
    final MappedTelemetry mapped = new TelemetryMapper(TARGET).map(serverPages(scrape(MetricsSamples.VLLM_V1),
        Optional.of(scrape(MetricsSamples.DCGM_A100_MIG)), Optional.of(scrape(MetricsSamples.NODE_NETSTAT))), NOW);

    final InstanceTelemetry sample = mapped.telemetry();
    assertThat(sample.getInstanceId()).isEqualTo("gpu-7");
    assertThat(sample.getZone()).isEqualTo("zone-b");
    assertThat(sample.getModel()).isEqualTo("deepseek-v4-flash-vision-exp-ablit-dual");
    assertThat(sample.getSampleTimeMs()).isEqualTo(NOW);
    assertThat(sample.getGpuUtilization()).isEqualTo(0.995630);
    assertThat(sample.getVramUsedBytes()).isEqualTo(4845L * 1024 * 1024);
    assertThat(sample.getKvCacheHitRate()).isEqualTo(3_241_216.0 / 3_675_428.0);
    assertThat(sample.getTcpRetransmitRate()).isEqualTo(227.0 / 54_915_039.0);
    assertThat(sample.getQueueLength()).isZero();
    assertThat(sample.getRunningRequests()).isZero();
    // (44995 generated - 26 first tokens) / 1419.8547863351414 s of inter-token time = 31.67 tokens/s.
    assertThat(sample.getDecodeTokensPerS()).isEqualTo(44_969 / 1419.8547863351414);
    assertThat(sample.getTokenIntervalStddevMs()).isCloseTo(18.221, within(0.001));
    assertThat(mapped.neutralFields()).isEqualTo(UNOBSERVED);
    assertNeutralValuesOfUnscrapableFields(sample);
  }

  @Test
  void shouldMapAVllm04ServerOnAnIdleT4() {
    final MappedTelemetry mapped = new TelemetryMapper(TARGET).map(serverPages(scrape(MetricsSamples.VLLM_04),
        Optional.of(scrape(MetricsSamples.DCGM_T4)), Optional.empty()), NOW);

    final InstanceTelemetry sample = mapped.telemetry();
    assertThat(sample.getModel()).isEqualTo("facebook/opt-125m");
    assertThat(sample.getGpuUtilization()).isZero();
    assertThat(sample.getVramUsedBytes()).isZero();
    assertThat(sample.getKvCacheHitRate()).isZero();
    // 6 intervals summing to 0.19016313552856445 s, all in the 25-50 ms bucket: no visible spread.
    assertThat(sample.getDecodeTokensPerS()).isEqualTo(6 / 0.19016313552856445);
    assertThat(sample.getTokenIntervalStddevMs()).isZero();
    assertThat(mapped.neutralFields()).isEqualTo(with(UNOBSERVED, "tcpRetransmitRate"));
  }

  @Test
  void shouldLeaveWhatAVllm07PageLacksAtNeutralValuesAndSayWhich() {
    final MappedTelemetry mapped = new TelemetryMapper(TARGET).map(
        serverPages(scrape(MetricsSamples.VLLM_07), Optional.empty(), Optional.empty()), NOW);

    assertThat(mapped.telemetry().getModel()).isEqualTo("Qwen/Qwen2.5-Coder-1.5B-Instruct");
    assertThat(mapped.telemetry().getKvCacheHitRate()).isZero();
    assertThat(mapped.neutralFields()).isEqualTo(with(UNOBSERVED, "gpuUtilization",
        "vramUsedBytes", "tcpRetransmitRate", "decodeTokensPerS", "tokenIntervalStddevMs"));
    assertThat(mapped.telemetry()).isEqualTo(TelemetryFields.neutral("gpu-7", "zone-b",
        "Qwen/Qwen2.5-Coder-1.5B-Instruct", NOW).build());
  }

  @Test
  void shouldMapAnSglangServerUnderHeavyLoad() {
    final InstanceTelemetry sample = new TelemetryMapper(TARGET).map(
        serverPages(scrape(MetricsSamples.SGLANG), Optional.empty(), Optional.empty()), NOW).telemetry();

    assertThat(sample.getQueueLength()).isEqualTo(2826);
    assertThat(sample.getRunningRequests()).isEqualTo(162);
    assertThat(sample.getKvCacheHitRate()).isEqualTo(0.007507552643049313);
    // 7400757 intervals over 866964.5791549598 s: 8.54 tokens/s per sequence.
    assertThat(sample.getDecodeTokensPerS()).isEqualTo(7_400_757 / 866_964.5791549598);
    assertThat(sample.getTokenIntervalStddevMs()).isCloseTo(154.740, within(0.001));
  }

  @Test
  void shouldTakeWhatEachRunningRequestMayStillGenerateFromTheWorkersPage() {
    final Scrape worker = PrometheusTextParser.parse(RunningRequestsPage.render(Map.of("s-1", 312, "s-2", 0)));

    final MappedTelemetry mapped = new TelemetryMapper(TARGET).map(new TargetScrapes(scrape(MetricsSamples.VLLM_V1),
        Optional.empty(), Optional.empty(), Optional.of(worker)), NOW);

    assertThat(mapped.telemetry().getRunningTokensToLimit()).containsExactlyInAnyOrder(312, 0);
    assertThat(mapped.neutralFields()).doesNotContain(TelemetryFields.FROM_WORKER);
  }

  @Test
  void shouldTakeAnEmptyWorkersPageAsNothingRunningThroughIt() {
    final Scrape idle = PrometheusTextParser.parse(RunningRequestsPage.render(Map.of()));

    final MappedTelemetry mapped = new TelemetryMapper(TARGET).map(new TargetScrapes(scrape(MetricsSamples.VLLM_V1),
        Optional.empty(), Optional.empty(), Optional.of(idle)), NOW);

    assertThat(mapped.telemetry().getRunningTokensToLimit()).isEmpty();
    assertThat(mapped.neutralFields()).isEqualTo(with(TelemetryFields.NOT_SCRAPABLE, "gpuUtilization",
        "vramUsedBytes", "tcpRetransmitRate"));
  }

  @Test
  void shouldRefuseAWorkersPageWhoseCountIsNotAWholeNumberOfTokens() {
    final Scrape odd = PrometheusTextParser.parse(RunningRequestsPage.METRIC + "{sequence=\"s-1\"} 2.5\n");

    assertThatThrownBy(() -> new TelemetryMapper(TARGET).map(new TargetScrapes(scrape(MetricsSamples.VLLM_V1),
        Optional.empty(), Optional.empty(), Optional.of(odd)), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("= 2.5, not a whole number of tokens")
        .hasMessageContaining("workerRunningUrl");
  }

  @Test
  void shouldPreferTheTargetsModelOverTheServersLabel() {
    final InstanceTelemetry sample = new TelemetryMapper(TARGET.withModel("opt-small")).map(
        serverPages(scrape(MetricsSamples.VLLM_04), Optional.empty(), Optional.empty()), NOW).telemetry();

    assertThat(sample.getModel()).isEqualTo("opt-small");
  }

  @Test
  void shouldDescribeOnlyTheTokensDecodedBetweenTwoScrapes() {
    final TelemetryMapper mapper = new TelemetryMapper(TARGET);
    mapper.map(engineOnly(text(MetricsSamples.VLLM_04)), NOW);

    // Given 8 more tokens of one sequence: 4 intervals of 40 ms (25-50 ms bucket) and 4 of 60 ms (50-75 ms).
    String later = text(MetricsSamples.VLLM_04);
    later = withValue(later, "vllm:generation_tokens_total{model_name=\"facebook/opt-125m\"}", "15.0");
    later = withValue(later, tpot("0.05"), "10.0");
    for (final String le : new String[] {"0.075", "0.1", "0.15", "0.2", "0.3", "0.4", "0.5", "0.75", "1.0", "2.5",
        "+Inf"}) {
      later = withValue(later, tpot(le), "14.0");
    }
    later = withValue(later, "vllm:time_per_output_token_seconds_count{model_name=\"facebook/opt-125m\"}", "14.0");
    later = withValue(later, "vllm:time_per_output_token_seconds_sum{model_name=\"facebook/opt-125m\"}",
        String.valueOf(0.19016313552856445 + 0.4));

    final InstanceTelemetry sample = mapper.map(engineOnly(later), NOW + 1000).telemetry();

    // Then 8 tokens in 0.4 s, and intervals at midpoints 37.5 and 62.5 ms: mean 50, deviation 12.5.
    assertThat(sample.getDecodeTokensPerS()).isCloseTo(20.0, within(1e-9));
    assertThat(sample.getTokenIntervalStddevMs()).isCloseTo(12.5, within(1e-9));
  }

  @Test
  void shouldRateRetransmitsAndPrefixHitsBetweenTwoScrapes() {
    final TelemetryMapper mapper = new TelemetryMapper(TARGET);
    mapper.map(serverPages(scrape(MetricsSamples.VLLM_V1), Optional.empty(),
        Optional.of(scrape(MetricsSamples.NODE_NETSTAT))), NOW);

    // Given 10000 segments sent, 100 of them retransmitted, and 1000 prompt tokens looked up, 500 found.
    final String host = withValue(withValue(text(MetricsSamples.NODE_NETSTAT), "node_netstat_Tcp_RetransSegs", "327"),
        "node_netstat_Tcp_OutSegs", "5.4925039e+07");
    final String engine = withValue(withValue(text(MetricsSamples.VLLM_V1),
        "vllm:prefix_cache_hits_total{engine=\"0\",model_name=\"deepseek-v4-flash-vision-exp-ablit-dual\"}", "3241716.0"),
        "vllm:prefix_cache_queries_total{engine=\"0\",model_name=\"deepseek-v4-flash-vision-exp-ablit-dual\"}",
        "3676428.0");

    final InstanceTelemetry sample = mapper.map(serverPages(PrometheusTextParser.parse(engine), Optional.empty(),
        Optional.of(PrometheusTextParser.parse(host))), NOW + 1000).telemetry();

    assertThat(sample.getTcpRetransmitRate()).isEqualTo(0.01);
    assertThat(sample.getKvCacheHitRate()).isEqualTo(0.5);
  }

  @Test
  void shouldCountEverythingAsNewWhenTheServerRestartedBetweenScrapes() {
    final TelemetryMapper mapper = new TelemetryMapper(TARGET);
    mapper.map(engineOnly(text(MetricsSamples.SGLANG)), NOW);

    final InstanceTelemetry afterRestart = mapper.map(engineOnly(text(MetricsSamples.VLLM_04)), NOW + 1000).telemetry();

    assertThat(afterRestart.getDecodeTokensPerS()).isEqualTo(6 / 0.19016313552856445);
  }

  @Test
  void shouldProduceSamplesTheValidatorAccepts() {
    final TelemetryValidator validator = new TelemetryValidator(Duration.ofSeconds(30));
    for (final String engine : new String[] {MetricsSamples.VLLM_V1, MetricsSamples.VLLM_04, MetricsSamples.VLLM_07,
        MetricsSamples.SGLANG}) {
      final InstanceTelemetry sample = new TelemetryMapper(TARGET).map(serverPages(scrape(engine),
          Optional.of(scrape(MetricsSamples.DCGM_T4)), Optional.of(scrape(MetricsSamples.NODE_NETSTAT))), NOW)
          .telemetry();

      assertThat(validator.problems(sample, NOW)).as(engine).isEmpty();
    }
  }

  private static void assertNeutralValuesOfUnscrapableFields(final InstanceTelemetry sample) {
    assertThat(sample.getVramFragmentation()).isZero();
    assertThat(sample.getKvWarmupLevel()).isEqualTo(1.0);
    assertThat(sample.getNcclRingLatencyMs()).isZero();
    assertThat(sample.getAllocationErrors()).isZero();
  }

  private static TargetScrapes engineOnly(final String page) {
    return serverPages(PrometheusTextParser.parse(page), Optional.empty(), Optional.empty());
  }

  /** A round of scrapes of the server and its host's exporters, without a worker's page. */
  private static TargetScrapes serverPages(final Scrape engine, final Optional<Scrape> gpu,
      final Optional<Scrape> host) {
    return new TargetScrapes(engine, gpu, host, Optional.empty());
  }

  private static String tpot(final String le) {
    return "vllm:time_per_output_token_seconds_bucket{le=\"" + le + "\",model_name=\"facebook/opt-125m\"}";
  }

  private static Set<String> with(final Set<String> fields, final String... more) {
    final Set<String> all = new TreeSet<>(fields);
    all.addAll(Set.of(more));
    return all;
  }
}
