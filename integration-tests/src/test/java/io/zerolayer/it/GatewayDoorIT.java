package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.gateway.GatewayConfig;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The gateway's door with the clients applications bring: past the open answers it allows, a
 * request is refused at once with each API's overload status and the retry time in the headers
 * the SDKs read, and let in again once an answer closes.
 */
@ExtendWith(TestCluster.class)
class GatewayDoorIT {

  private static final String TENANT = "tenant-0";

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldRefuseAtOnceWithARetryTimeWhileTheDoorIsFull(final TestCluster.Handle cluster) throws Exception {
    try (PipelineRig rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard())
        .tenants(GatewayClients.tenants(List.of(TENANT))).gatewaySettings(Map.of(
            GatewayConfig.MAX_OPEN_ANSWERS, 1, GatewayConfig.MIN_OPEN_ANSWERS, 1,
            GatewayConfig.OVERLOAD_RETRY_AFTER_MS, 1_500))
        .gateway().start()) {
      final int port = rig.gateway().port();
      final String key = TestTenants.key(TENANT);
      final AnthropicClient anthropic = GatewayClients.anthropic(port, key);
      final MessageCreateParams params = MessageCreateParams.builder().model(GatewayClients.MODEL).maxTokens(8)
          .addUserMessage("Is there room?").build();

      // Given a gateway that keeps one answer open at most, with a long answer streaming
      try (StreamResponse<RawMessageStreamEvent> open = anthropic.messages().createStreaming(params.toBuilder()
          .maxTokens(400).build())) {
        final Iterator<RawMessageStreamEvent> events = open.stream().iterator();
        assertThat(events.next().isMessageStart()).isTrue();

        // When another request comes, through either API, it is refused at once, with the retry time
        assertThatThrownBy(() -> anthropic.messages().create(params))
            .isInstanceOfSatisfying(AnthropicServiceException.class, e -> {
              assertThat(e.statusCode()).isEqualTo(529);
              assertThat(e.headers().values("retry-after-ms")).containsExactly("1500");
              assertThat(e.headers().values("retry-after")).containsExactly("2");
              assertThat(e.getMessage()).contains("overloaded_error", "open answers");
            });
        assertThatThrownBy(() -> GatewayClients.openAi(port, key, GatewayClients.MODEL, 8)
            .chat(ChatRequest.builder().messages(UserMessage.from("Is there room?")).build()))
            .rootCause().asInstanceOf(InstanceOfAssertFactories.type(HttpException.class))
            .extracting(HttpException::statusCode).isEqualTo(503);
      }

      // Then once the open answer is given up, requests are let in again
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
          assertThat(GatewayClients.text(anthropic.messages().create(params))).isNotEmpty());
    }
  }
}
