package io.zerolayer.it;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.messages.Message;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The SDK clients the gateway tests drive it with, each pointed at one gateway, without retries. */
final class GatewayClients {

  static final String MODEL = "sim-8b";

  private GatewayClients() {
  }

  /** Tenants of a gateway test: {@code ids} without limits (key {@code key-<id>}), and any others. */
  static TenantDirectory tenants(final List<String> ids, final Tenant... others) {
    final List<Tenant> tenants = new ArrayList<>(List.of(others));
    ids.forEach(id -> tenants.add(new Tenant(id, Tenant.hashKey(TestTenants.key(id)), 100_000, 100_000_000, 10)));
    return TenantDirectory.of(tenants);
  }

  /** The official Anthropic SDK; its base URL is the gateway's root, without {@code /v1}. */
  static AnthropicClient anthropic(final int port, final String key) {
    return AnthropicOkHttpClient.builder().baseUrl("http://127.0.0.1:" + port).apiKey(key).maxRetries(0)
        .timeout(Duration.ofSeconds(60)).build();
  }

  /** langchain4j's OpenAI chat model; its base URL ends with {@code /v1}. */
  static OpenAiChatModel openAi(final int port, final String key, final String model, final int maxTokens) {
    return OpenAiChatModel.builder().baseUrl("http://127.0.0.1:" + port + "/v1").apiKey(key).modelName(model)
        .maxTokens(maxTokens).maxRetries(0).timeout(Duration.ofSeconds(60)).build();
  }

  static String text(final Message message) {
    final StringBuilder text = new StringBuilder();
    message.content().forEach(block -> block.text().ifPresent(t -> text.append(t.text())));
    return text.toString();
  }
}
