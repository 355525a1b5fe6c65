package io.zerolayer.gateway.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.zerolayer.contract.avro.ChatMessage;
import io.zerolayer.contract.avro.RoutingOutcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenAiChatTest {

  private final OpenAiChat chat = new OpenAiChat(256, 4096);

  @Test
  void shouldReadTheFieldsOfAChatCompletionRequest() throws Exception {
    final GatewayRequest request = chat.parse(body("""
        {"model": "sim-8b", "messages": [{"role": "system", "content": "Be brief."},
          {"role": "user", "content": [{"type": "text", "text": "Why "}, {"type": "text", "text": "Kafka?"}]}],
         "max_completion_tokens": 64, "max_tokens": 9, "seed": 7, "stream": true,
         "stream_options": {"include_usage": true}, "user": "u-1", "temperature": 0.2}"""));

    assertThat(request.model()).isEqualTo("sim-8b");
    assertThat(request.messages()).containsExactly(new ChatMessage("system", "Be brief."),
        new ChatMessage("user", "Why Kafka?"));
    assertThat(request.maxTokens()).isEqualTo(64);
    assertThat(request.seed()).isEqualTo(7);
    assertThat(request.stream()).isTrue();
    assertThat(request.includeUsage()).isTrue();
    assertThat(request.ignoreEos()).isFalse();
  }

  @Test
  void shouldReadTheIgnoreEosExtensionOfVllmAndSglang() throws Exception {
    final GatewayRequest request = chat.parse(body("""
        {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 50, "ignore_eos": true}"""));

    assertThat(request.ignoreEos()).isTrue();
    assertBad("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"ignore_eos\": 1}",
        "ignore_eos", "true or false");
  }

  @Test
  void shouldTakeTheDefaultLimitWhenTheRequestNamesNone() throws Exception {
    final GatewayRequest request = chat.parse(body("""
        {"model": "m", "messages": [{"role": "user", "content": "hi"}]}"""));

    assertThat(request.maxTokens()).isEqualTo(256);
    assertThat(request.stream()).isFalse();
  }

  @Test
  void shouldNameTheParameterOfEachBadRequest() {
    assertBad("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}", "model", "'model' is required");
    assertBad("{\"model\": \"m\"}", "messages", "'messages' is required");
    assertBad("{\"model\": \"m\", \"messages\": []}", "messages", "non-empty array");
    assertBad("{\"model\": \"m\", \"messages\": [{\"role\": \"robot\", \"content\": \"x\"}]}", "messages[0].role",
        "must be one of");
    assertBad("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"max_tokens\": 0}",
        "max_tokens", "from 1 to 4096");
    assertBad("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"max_tokens\": \"9\"}",
        "max_tokens", "must be an integer");
    assertBad("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"stream\": \"yes\"}",
        "stream", "true or false");
    assertBad("{\"model\": 5, \"messages\": [{\"role\": \"user\", \"content\": \"x\"}]}", "model", "string");
  }

  @Test
  void shouldRefuseABodyThatIsNotAJsonObject() {
    assertThatThrownBy(() -> Json.parse("not json".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> Json.parse("[1]".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("JSON object");
  }

  @Test
  void shouldStreamChunksThatEndWithTheFinishReasonUsageAndDone() {
    final Answer answer = new Answer("acme-1", "sim-8b", 100, RoutingOutcome.FALLBACK, "gpu-2", 12);

    final List<SseEvent> end = chat.end(answer, new Answer.End("length", 12, 8, RoutingOutcome.CUTOVER, "gpu-3", 2),
        true);

    assertThat(chat.start(answer).get(0).data()).contains("\"role\":\"assistant\"")
        .contains("\"object\":\"chat.completion.chunk\"");
    assertThat(chat.delta(answer, "Hi").data()).contains("\"delta\":{\"content\":\"Hi\"}");
    assertThat(end.get(0).data()).contains("\"finish_reason\":\"length\"").contains("\"cutover\":true")
        .contains("\"final_instance\":\"gpu-3\"");
    assertThat(end.get(1).data()).contains("\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":8");
    assertThat(end.get(2).data()).isEqualTo("[DONE]");
  }

  @Test
  void shouldWriteErrorsInOpenAisFormat() {
    final Failure throttled = new Failure(Failure.Kind.RATE_LIMITED, "slow down", null, 1500L);

    assertThat(chat.status(throttled)).isEqualTo(429);
    assertThat(Json.line(chat.error(throttled)))
        .isEqualTo("{\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit_exceeded\",\"param\":null,"
            + "\"code\":\"rate_limit_exceeded\"}}");
    assertThat(chat.status(Failure.of(Failure.Kind.OVERLOADED, "full"))).isEqualTo(503);
  }

  private void assertBad(final String json, final String param, final String message) {
    assertThatThrownBy(() -> chat.parse(body(json)))
        .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.param()).isEqualTo(param))
        .hasMessageContaining(message);
  }

  static JsonNode body(final String json) throws BadRequestException {
    return Json.parse(json.getBytes(StandardCharsets.UTF_8));
  }
}
