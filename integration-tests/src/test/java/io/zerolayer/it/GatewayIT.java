package io.zerolayer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.HttpResponseFor;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.NotFoundException;
import com.anthropic.errors.RateLimitException;
import com.anthropic.errors.UnauthorizedException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zerolayer.fleet.Fleet;
import io.zerolayer.fleet.GpuProfile;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.testsupport.Awaits;
import io.zerolayer.testsupport.ExpectedText;
import io.zerolayer.testsupport.PipelineRig;
import io.zerolayer.testsupport.TestCluster;
import io.zerolayer.testsupport.TestTenants;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP gateway driven by the clients applications bring: the official Anthropic Java SDK for
 * {@code /v1/messages} and langchain4j's OpenAI module for {@code /v1/chat/completions}, on the
 * whole pipeline with a simulated fleet.
 */
@ExtendWith(TestCluster.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayIT {

  private static final String MODEL = GatewayClients.MODEL;
  private static final String TENANT = "tenant-0";
  private static final String BIG_MODEL = "sim-70b";
  /** A tenant allowed one request at once, then one every 20 s. */
  private static final Tenant SLOW = new Tenant("slow", Tenant.hashKey("slow-key"), 0.05, 100_000, 20);

  private PipelineRig rig;
  private String baseUrl;
  private int port;

  @BeforeAll
  void startThePipelineWithAGateway(final TestCluster.Handle cluster) throws Exception {
    rig = PipelineRig.on(cluster).fleet(2, List.of("zone-a"), GpuProfile.standard())
        .tenants(GatewayClients.tenants(List.of(TENANT), SLOW)).gateway().start();
    port = rig.gateway().port();
    baseUrl = "http://127.0.0.1:" + port;
  }

  @AfterAll
  void stop() throws Exception {
    rig.close();
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void shouldAnswerAnthropicMessagesWholeAndStreamedWithTheModelsText() throws Exception {
    final AnthropicClient anthropic = anthropic(TestTenants.key(TENANT));
    final MessageCreateParams params = MessageCreateParams.builder().model(MODEL).maxTokens(24)
        .system("Be brief.").addUserMessage("Why does a cold GPU answer slowly?").build();
    final String expected = ExpectedText.ofChat(0, 24, "system", "Be brief.", "user",
        "Why does a cold GPU answer slowly?");

    final HttpResponseFor<Message> raw = anthropic.messages().withRawResponse().create(params);
    final Message whole = raw.parse();
    assertThat(text(whole)).isEqualTo(expected);
    assertThat(whole.usage().outputTokens()).isPositive();
    assertThat(whole.stopReason()).contains(StopReason.END_TURN);
    assertThat(raw.headers().values("x-zerolayer-routing")).containsExactly("direct");
    assertThat(raw.headers().values("x-zerolayer-instance")).allMatch(rig.fleet().instanceIds()::contains);
    assertThat(whole.id()).isEqualTo("msg_" + raw.headers().values("x-request-id").get(0));

    final MessageAccumulator accumulator = MessageAccumulator.create();
    try (StreamResponse<RawMessageStreamEvent> stream = anthropic.messages().createStreaming(params)) {
      stream.stream().forEach(accumulator::accumulate);
    }
    final Message streamed = accumulator.message();
    assertThat(text(streamed)).isEqualTo(expected);
    assertThat(streamed.usage().outputTokens()).isEqualTo(whole.usage().outputTokens());
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void shouldAnswerOpenAiChatCompletionsWholeAndStreamedToLangchain4j() throws Exception {
    final ChatRequest request = ChatRequest.builder().messages(UserMessage.from("What does Kafka keep?")).build();
    final String expected = ExpectedText.ofChat(7, 32, "user", "What does Kafka keep?");

    final ChatResponse whole = OpenAiChatModel.builder().baseUrl(baseUrl + "/v1").apiKey(TestTenants.key(TENANT))
        .modelName(MODEL).maxTokens(32).seed(7).maxRetries(0).timeout(Duration.ofSeconds(60)).build().chat(request);
    assertThat(whole.aiMessage().text()).isEqualTo(expected);
    assertThat(whole.tokenUsage().outputTokenCount()).isPositive();
    assertThat(whole.tokenUsage().inputTokenCount()).isPositive();

    final CompletableFuture<ChatResponse> done = new CompletableFuture<>();
    final StringBuilder partials = new StringBuilder();
    OpenAiStreamingChatModel.builder().baseUrl(baseUrl + "/v1").apiKey(TestTenants.key(TENANT)).modelName(MODEL)
        .maxTokens(32).seed(7).timeout(Duration.ofSeconds(60)).build()
        .chat(request, new StreamingChatResponseHandler() {
          @Override
          public void onPartialResponse(final String partial) {
            partials.append(partial);
          }

          @Override
          public void onCompleteResponse(final ChatResponse response) {
            done.complete(response);
          }

          @Override
          public void onError(final Throwable error) {
            done.completeExceptionally(error);
          }
        });
    final ChatResponse streamed = done.get(60, TimeUnit.SECONDS);
    assertThat(partials.toString()).isEqualTo(expected);
    assertThat(streamed.aiMessage().text()).isEqualTo(expected);
    assertThat(streamed.tokenUsage().outputTokenCount()).isEqualTo(whole.tokenUsage().outputTokenCount());
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void shouldRaiseEachSdksTypedExceptionsForAWrongKeyABadRequestAndAnUnknownModel() {
    final MessageCreateParams params = MessageCreateParams.builder().model(MODEL).maxTokens(8)
        .addUserMessage("Hello").build();
    assertThatThrownBy(() -> anthropic("not-a-key").messages().create(params))
        .isInstanceOf(UnauthorizedException.class);
    assertThatThrownBy(() -> anthropic(TestTenants.key(TENANT)).messages().create(params.toBuilder()
        .maxTokens(1_000_000).build()))
        .isInstanceOf(com.anthropic.errors.BadRequestException.class).hasMessageContaining("max_tokens");
    assertThatThrownBy(() -> anthropic(TestTenants.key(TENANT)).messages().create(params.toBuilder()
        .model("no-such-model").build()))
        .isInstanceOf(NotFoundException.class).hasMessageContaining(MODEL);

    final ChatRequest hello = ChatRequest.builder().messages(UserMessage.from("Hello")).build();
    assertThatThrownBy(() -> openAi("not-a-key", MODEL, 8).chat(hello)).isInstanceOf(AuthenticationException.class);
    assertThatThrownBy(() -> openAi(TestTenants.key(TENANT), MODEL, 1_000_000).chat(hello))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("max_tokens");
    assertThatThrownBy(() -> openAi(TestTenants.key(TENANT), "no-such-model", 8).chat(hello))
        .isInstanceOf(ModelNotFoundException.class);
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void shouldAnswerATenantOverItsLimitWith429AndTheExactRetryDelay() {
    final AnthropicClient slow = anthropic("slow-key");
    final MessageCreateParams params = MessageCreateParams.builder().model(MODEL).maxTokens(4)
        .addUserMessage("Hello").build();
    assertThat(text(slow.messages().create(params))).isNotEmpty();

    assertThatThrownBy(() -> slow.messages().create(params))
        .isInstanceOfSatisfying(RateLimitException.class, e -> {
          final long retryAfterMs = Long.parseLong(e.headers().values("retry-after-ms").get(0));
          assertThat(retryAfterMs).isBetween(1L, 20_000L);
          assertThat(Long.parseLong(e.headers().values("retry-after").get(0)))
              .isEqualTo((retryAfterMs + 999) / 1000);
        });
    assertThatThrownBy(() -> openAi("slow-key", MODEL, 4).chat(ChatRequest.builder()
        .messages(UserMessage.from("Hello")).build()))
        .isInstanceOf(dev.langchain4j.exception.RateLimitException.class);
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldServeEachRequestOnAnInstanceOfTheModelItAsksFor() throws Exception {
    // Given a second model on two instances of their own beside the two of the first
    final Fleet big = rig.open(Fleet.start(rig.settings(), "big-", 2, List.of("zone-a"), GpuProfile.standard(),
        new SimpleMeterRegistry(), Set.of(), BIG_MODEL));
    Awaits.routerSees(rig.pipeline(), big.instanceIds());
    // (retrying as the SDK does by default: a busy machine can take every instance of a model out of
    // service for a moment, which the gateway answers with 529 and a retry time)
    final AnthropicClient anthropic = anthropic(TestTenants.key(TENANT)).withOptions(options -> options
        .maxRetries(3));
    await().atMost(Duration.ofSeconds(30)).until(() -> anthropic.models().list().data().stream()
        .anyMatch(model -> model.id().equals(BIG_MODEL)));

    // When requests for each model go through the gateway, in turns
    for (int i = 0; i < 10; i++) {
      final String model = i % 2 == 0 ? MODEL : BIG_MODEL;
      final HttpResponseFor<Message> raw = anthropic.messages().withRawResponse().create(MessageCreateParams
          .builder().model(model).maxTokens(8).addUserMessage("Which model are you? " + i).build());

      // Then each is served by an instance of its model
      final String instance = raw.headers().values("x-zerolayer-instance").get(0);
      assertThat(model.equals(BIG_MODEL) ? big.instanceIds() : rig.fleet().instanceIds())
          .as("request %d for %s served by %s", i, model, instance).contains(instance);
      assertThat(raw.parse().model().asString()).isEqualTo(model);
    }
  }

  private AnthropicClient anthropic(final String key) {
    return GatewayClients.anthropic(port, key);
  }

  private OpenAiChatModel openAi(final String key, final String model, final int maxTokens) {
    return GatewayClients.openAi(port, key, model, maxTokens);
  }

  private static String text(final Message message) {
    return GatewayClients.text(message);
  }
}
