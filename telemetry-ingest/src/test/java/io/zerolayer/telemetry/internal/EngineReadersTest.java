package io.zerolayer.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.telemetry.MetricsSamples;
import org.junit.jupiter.api.Test;

class EngineReadersTest {

  @Test
  void shouldReadTheVllmV1EngineWithPrefixCacheCountersAndInterTokenLatency() {
    final EngineReading reading = EngineReaders.read(MetricsSamples.scrape(MetricsSamples.VLLM_V1));

    assertThat(reading.model()).hasValue("deepseek-v4-flash-vision-exp-ablit-dual");
    assertThat(reading.queueLength()).hasValue(0);
    assertThat(reading.runningRequests()).hasValue(0);
    assertThat(reading.kvCacheUsage()).hasValue(0);
    assertThat(reading.prefixHitRate()).isEmpty();
    assertThat(reading.prefixCache()).contains(new CacheCounts(3_241_216, 3_675_428));
    assertThat(reading.decode()).hasValueSatisfying(decode -> {
      // Speculative decoding: 17807 steps emitted 44995 generated - 26 first tokens = 44969 tokens.
      assertThat(decode.intervals().count()).isEqualTo(17_807);
      assertThat(decode.intervals().sum()).isEqualTo(1419.8547863351414);
      assertThat(decode.decodedTokens()).isEqualTo(44_969);
    });
  }

  @Test
  void shouldReadTheVllm04EngineWithPrefixCachingOffAndTimePerOutputToken() {
    final EngineReading reading = EngineReaders.read(MetricsSamples.scrape(MetricsSamples.VLLM_04));

    assertThat(reading.model()).hasValue("facebook/opt-125m");
    assertThat(reading.kvCacheUsage()).hasValue(0);
    // No hit-rate metric, but cache_config_info says enable_prefix_caching="False".
    assertThat(reading.prefixHitRate()).hasValue(0.0);
    assertThat(reading.prefixCache()).isEmpty();
    assertThat(reading.decode()).hasValueSatisfying(decode -> {
      assertThat(decode.intervals().count()).isEqualTo(6);
      // 7 generated tokens - 1 first token = 6, the histogram's own count.
      assertThat(decode.decodedTokens()).isEqualTo(6);
    });
  }

  @Test
  void shouldReadMinusOneHitRateOfVllm07AsNothingServedFromCache() {
    final EngineReading reading = EngineReaders.read(MetricsSamples.scrape(MetricsSamples.VLLM_07));

    assertThat(reading.model()).hasValue("Qwen/Qwen2.5-Coder-1.5B-Instruct");
    assertThat(reading.prefixHitRate()).hasValue(0.0);
    assertThat(reading.decode()).isEmpty();
  }

  @Test
  void shouldReadSglangQueueRunningTokenUsageHitRateAndTimePerOutputToken() {
    final EngineReading reading = EngineReaders.read(MetricsSamples.scrape(MetricsSamples.SGLANG));

    assertThat(reading.model()).hasValue("meta-llama/Llama-3.1-8B-Instruct");
    assertThat(reading.queueLength()).hasValue(2826);
    assertThat(reading.runningRequests()).hasValue(162);
    assertThat(reading.kvCacheUsage()).hasValue(0.28);
    assertThat(reading.prefixHitRate()).hasValue(0.007507552643049313);
    assertThat(reading.decode()).hasValueSatisfying(decode -> {
      assertThat(decode.decodedTokens()).isEqualTo(7_400_757);
      assertThat(decode.intervals().sum()).isEqualTo(866_964.5791549598);
    });
  }

  @Test
  void shouldRefuseAPageOfNeitherEngine() {
    assertThatThrownBy(() -> EngineReaders.read(MetricsSamples.scrape(MetricsSamples.DCGM_T4)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
