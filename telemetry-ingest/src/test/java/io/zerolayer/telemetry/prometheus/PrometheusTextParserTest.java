package io.zerolayer.telemetry.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.zerolayer.telemetry.MetricsSamples;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PrometheusTextParserTest {

  @ParameterizedTest
  @ValueSource(strings = {MetricsSamples.VLLM_V1, MetricsSamples.VLLM_04, MetricsSamples.VLLM_07,
      MetricsSamples.SGLANG, MetricsSamples.DCGM_T4, MetricsSamples.DCGM_A100_MIG, MetricsSamples.NODE_NETSTAT})
  void shouldReadEverySampleLineOfARealPage(final String file) {
    final String text = MetricsSamples.text(file);
    final long sampleLines = text.lines().filter(line -> !line.isBlank() && !line.startsWith("#")).count();

    assertThat(PrometheusTextParser.parse(text).samples()).hasSize((int) sampleLines);
  }

  @Test
  void shouldReadTypeHelpLabelsAndValueOfAFamily() {
    final Scrape scrape = MetricsSamples.scrape(MetricsSamples.VLLM_04);

    assertThat(scrape.type("vllm:time_per_output_token_seconds")).isEqualTo(MetricType.HISTOGRAM);
    assertThat(scrape.help("vllm:num_requests_waiting")).hasValue("Number of requests waiting to be processed.");
    assertThat(scrape.series("vllm:request_success_total")).singleElement().satisfies(sample -> {
      assertThat(sample.labels()).isEqualTo(Map.of("finished_reason", "length", "model_name", "facebook/opt-125m"));
      assertThat(sample.value()).isEqualTo(1.0);
      assertThat(sample.timestampMs()).isEmpty();
    });
  }

  @Test
  void shouldTreatAFamilyWithoutTypeLineAsUntyped() {
    final Scrape scrape = MetricsSamples.scrape(MetricsSamples.DCGM_A100_MIG);

    assertThat(scrape.type("DCGM_FI_DEV_FB_USED")).isEqualTo(MetricType.UNTYPED);
    assertThat(scrape.sum("DCGM_FI_DEV_FB_USED")).hasValue(4845);
    assertThat(scrape.series("DCGM_FI_PROF_GR_ENGINE_ACTIVE")).hasSize(2);
  }

  @Test
  void shouldReadExponentsIncludingPythonsThreeDigitOnes() {
    assertThat(MetricsSamples.scrape(MetricsSamples.NODE_NETSTAT).sum("node_netstat_Tcp_OutSegs"))
        .hasValue(54_915_039);
    assertThat(MetricsSamples.scrape(MetricsSamples.VLLM_V1).sum("process_virtual_memory_bytes"))
        .hasValue(10_777_853_952.0);
  }

  @Test
  void shouldAssembleAHistogramWhoseSumComesBeforeItsBuckets() {
    final Histogram tpot = MetricsSamples.scrape(MetricsSamples.SGLANG)
        .histograms("sglang:time_per_output_token_seconds").get(0);

    assertThat(tpot.labels()).isEqualTo(Map.of("model_name", "meta-llama/Llama-3.1-8B-Instruct"));
    assertThat(tpot.buckets()).hasSize(19);
    assertThat(tpot.buckets().get(0)).isEqualTo(new Histogram.Bucket(0.005, 1));
    assertThat(tpot.count()).isEqualTo(7_400_757);
    assertThat(tpot.sum()).isEqualTo(866_964.5791549598);
  }

  @Test
  void shouldResolveEscapesInLabelValues() {
    final Sample sample = PrometheusTextParser.parse(
        "msdos_file_access_time_seconds{path=\"C:\\\\DIR\\\\FILE.TXT\",error=\"Cannot find file:\\n\\\"FILE.TXT\\\"\"}"
            + " 1.458255915e9\n").samples().get(0);

    assertThat(sample.labels()).containsEntry("path", "C:\\DIR\\FILE.TXT")
        .containsEntry("error", "Cannot find file:\n\"FILE.TXT\"");
    assertThat(sample.value()).isEqualTo(1.458255915e9);
  }

  @Test
  void shouldReadNanAndInfinitiesTimestampsBlanksAndATrailingComma() {
    final Scrape scrape = PrometheusTextParser.parse("""
        # a comment that is neither HELP nor TYPE
        a NaN
        b{} +Inf
        c { x = "1" , } -Inf
        d\t7 1395066363000\r
        """);

    assertThat(scrape.sum("a").getAsDouble()).isNaN();
    assertThat(scrape.sum("b")).hasValue(Double.POSITIVE_INFINITY);
    assertThat(scrape.series("c").get(0).labels()).isEqualTo(Map.of("x", "1"));
    assertThat(scrape.sum("c")).hasValue(Double.NEGATIVE_INFINITY);
    assertThat(scrape.series("d").get(0).timestampMs()).isEqualTo(OptionalLong.of(1_395_066_363_000L));
  }

  @Test
  void shouldUnescapeHelpText() {
    assertThat(PrometheusTextParser.parse("# HELP x a\\\\b\\nc\nx 1\n").help("x")).hasValue("a\\b\nc");
  }

  static Stream<Arguments> malformedPages() {
    return Stream.of(
        arguments("x{a=\"b} 1", "line 1: unterminated label value"),
        arguments("x{a=\"\\t\"} 1", "line 1: invalid escape '\\t' in a label value"),
        arguments("x{a=\"1\",a=\"2\"} 1", "line 1: label a appears twice"),
        arguments("x{a=\"1\" b=\"2\"} 1", "line 1: expected ',' or '}' at column 9"),
        arguments("x{a=1} 1", "line 1: expected '\"' at column 5"),
        arguments("x", "line 1: expected a blank and a value at column 2"),
        arguments("x 1,5", "line 1: '1,5' is not a number"),
        arguments("x 0x1p3", "line 1: '0x1p3' is not a number"),
        arguments("x Infinity", "line 1: 'Infinity' is not a number"),
        arguments("1x 1", "line 1: expected a metric name at column 1"),
        arguments("x 1 12.5", "line 1: '12.5' is not a timestamp in ms"),
        arguments("x 1 2 3", "line 1: unexpected '3' after the value"),
        arguments("# TYPE x flux", "line 1: unknown metric type 'flux'"),
        arguments("# TYPE x", "line 1: TYPE line for x names no type"),
        arguments("# HELP x a\\tb", "line 1: invalid escape '\\t' in HELP text"),
        arguments("# TYPE ok gauge\n# TYPE ok gauge", "line 2: second TYPE line for ok"),
        arguments("# HELP ok a\n# HELP ok b", "line 2: second HELP line for ok"),
        arguments("ok 1\nok 2", "line 2: second sample of series ok{}"),
        arguments("x 1\n# TYPE x gauge", "line 2: TYPE line for x after its samples"),
        arguments("# TYPE h histogram\nh 1", "line 2: histogram sample without _bucket, _sum or _count"),
        arguments("# TYPE h histogram\nh_bucket 1", "line 2: h_bucket has no 'le' label"),
        arguments("# TYPE h histogram\nh_bucket{le=\"soon\"} 1", "line 2: le label: 'soon' is not a number"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("malformedPages")
  void shouldRejectAMalformedLineNamingIt(final String page, final String message) {
    assertThatThrownBy(() -> PrometheusTextParser.parse(page + "\n"))
        .isInstanceOf(PrometheusParseException.class).hasMessage(message);
  }

  @Test
  void shouldRejectAHistogramWithoutInfBucketOrCountWhenItIsRead() {
    final Scrape noInf = PrometheusTextParser.parse(
        "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_sum 1.5\nh_count 2\n");
    final Scrape noCount = PrometheusTextParser.parse(
        "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 1.5\n");
    final Scrape shrinking = PrometheusTextParser.parse(
        "# TYPE h histogram\nh_bucket{le=\"1\"} 3\nh_bucket{le=\"+Inf\"} 2\nh_sum 1.5\nh_count 2\n");

    assertThatThrownBy(() -> noInf.histograms("h")).hasMessageContaining("no +Inf bucket");
    assertThatThrownBy(() -> noCount.histograms("h")).hasMessageContaining("has no h_count");
    assertThatThrownBy(() -> shrinking.histograms("h")).hasMessageContaining("bucket counts decrease");
  }
}
