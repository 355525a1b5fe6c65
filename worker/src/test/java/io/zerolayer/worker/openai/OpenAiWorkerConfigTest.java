package io.zerolayer.worker.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class OpenAiWorkerConfigTest {

  @Test
  void shouldReadEveryKeyFromItsEnvironmentVariable() {
    final OpenAiWorkerConfig config = OpenAiWorkerConfig.fromEnvironment(Map.of(
        "ZEROLAYER_OPENAI_WORKER_INSTANCE_ID", "gpu-7",
        "ZEROLAYER_OPENAI_WORKER_BASE_URL", "http://vllm-7:8000",
        "ZEROLAYER_OPENAI_WORKER_MODEL", "meta-llama/Llama-3.1-8B-Instruct",
        "ZEROLAYER_OPENAI_WORKER_API_KEY", "secret",
        "ZEROLAYER_OPENAI_WORKER_SEQUENCE_QUERY_URL", "http://token-buffer:8084",
        "ZEROLAYER_OPENAI_WORKER_SEQUENCE_QUERY_TOKEN", "query-secret",
        "ZEROLAYER_OPENAI_WORKER_NETWORK_TIMEOUT_MS", "750",
        "ZEROLAYER_OPENAI_WORKER_MAX_CONCURRENT_TASKS", "128"));

    assertThat(config.instanceId()).isEqualTo("gpu-7");
    assertThat(config.baseUrl()).isEqualTo("http://vllm-7:8000");
    assertThat(config.model()).isEqualTo("meta-llama/Llama-3.1-8B-Instruct");
    assertThat(config.apiKey()).isEqualTo("secret");
    assertThat(config.sequenceQueryUrl()).isEqualTo("http://token-buffer:8084");
    assertThat(config.sequenceQueryToken()).isEqualTo("query-secret");
    assertThat(config.networkTimeout()).isEqualTo(Duration.ofMillis(750));
    assertThat(config.maxConcurrentTasks()).isEqualTo(128);
    assertThat(config.toString()).doesNotContain("secret");
  }

  @Test
  void shouldDefaultToTheDesignedNetworkTimeoutAndNoApiKey() {
    final OpenAiWorkerConfig config = new OpenAiWorkerConfig(Map.of(
        OpenAiWorkerConfig.INSTANCE_ID, "gpu-1", OpenAiWorkerConfig.MODEL, "m",
        OpenAiWorkerConfig.SEQUENCE_QUERY_TOKEN, "t"));

    assertThat(config.networkTimeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(config.apiKey()).isEmpty();
    assertThat(config.baseUrl()).isEqualTo("http://127.0.0.1:8000");
  }

  @Test
  void shouldRefuseToStartWithoutAnInstanceId() {
    assertThatThrownBy(() -> OpenAiWorkerConfig.fromEnvironment(Map.of("ZEROLAYER_OPENAI_WORKER_MODEL", "m")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(OpenAiWorkerConfig.INSTANCE_ID);
  }
}
