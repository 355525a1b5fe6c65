package io.zerolayer.gateway.internal;

import static io.zerolayer.gateway.internal.OpenAiChatTest.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.contract.avro.ChatMessage;
import io.zerolayer.contract.avro.RoutingOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnthropicMessagesTest {

  private final AnthropicMessages messages = new AnthropicMessages(4096);

  @Test
  void shouldPutTheSystemPromptFirstAndRequireATokenLimit() throws Exception {
    final GatewayRequest request = messages.parse(body("""
        {"model": "sim-8b", "system": [{"type": "text", "text": "Be brief."}], "max_tokens": 32,
         "messages": [{"role": "user", "content": "Why Kafka?"}], "stream": true}"""));

    assertThat(request.messages()).containsExactly(new ChatMessage("system", "Be brief."),
        new ChatMessage("user", "Why Kafka?"));
    assertThat(request.maxTokens()).isEqualTo(32);
    assertThatThrownBy(() -> messages.parse(body("""
        {"model": "m", "messages": [{"role": "user", "content": "x"}]}""")))
        .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.param()).isEqualTo("max_tokens"));
    assertThatThrownBy(() -> messages.parse(body("""
        {"model": "m", "max_tokens": 5, "messages": [{"role": "system", "content": "x"}]}""")))
        .hasMessageContaining("must be one of [user, assistant]");
  }

  @Test
  void shouldStreamTheEventsOfTheMessagesApiInOrder() {
    final Answer answer = new Answer("acme-1", "sim-8b", 100, RoutingOutcome.DIRECT, "gpu-1", 12);

    final List<SseEvent> start = messages.start(answer);
    final List<SseEvent> end = messages.end(answer, new Answer.End("length", 12, 8, RoutingOutcome.DIRECT, "gpu-1",
        1), true);

    assertThat(start).extracting(SseEvent::event).containsExactly("message_start", "content_block_start");
    assertThat(start.get(0).data()).contains("\"input_tokens\":12");
    assertThat(messages.delta(answer, "Hi").data())
        .isEqualTo("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}");
    assertThat(end).extracting(SseEvent::event).containsExactly("content_block_stop", "message_delta", "message_stop");
    assertThat(end.get(1).data()).contains("\"stop_reason\":\"max_tokens\"").contains("\"output_tokens\":8");
  }

  @Test
  void shouldAnswerOverloadWith529AndItsErrorType() {
    final Failure overloaded = Failure.of(Failure.Kind.OVERLOADED, "no instance can take new work");

    assertThat(messages.status(overloaded)).isEqualTo(529);
    assertThat(Json.line(messages.error(overloaded))).isEqualTo(
        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"no instance can take new work\"}}");
    assertThat(messages.status(Failure.of(Failure.Kind.RATE_LIMITED, "x"))).isEqualTo(429);
  }
}
