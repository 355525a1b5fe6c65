package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.ChatMessage;
import io.zerolayer.contract.avro.InferenceRequest;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RequestValidatorTest {

  private final RequestValidator validator = new RequestValidator(1024, 100, Set.of("inference.dispatch.v1"));

  @Test
  void shouldAcceptAWellFormedRequest() {
    assertThat(validator.rejection("seq-1", request().build())).isEmpty();
  }

  @Test
  void shouldAcceptMessagesInsteadOfAPrompt() {
    final InferenceRequest chat = request().setPrompt(null)
        .setMessages(List.of(new ChatMessage("user", "hi"))).build();

    assertThat(validator.rejection("seq-1", chat)).isEmpty();
  }

  @Test
  void shouldRejectAnEmptyTenant() {
    assertThat(validator.rejection("seq-1", request().setTenantId(" ").build())).hasValueSatisfying(
        reason -> assertThat(reason).contains("tenantId"));
  }

  @Test
  void shouldRejectASessionKeyOverItsLimitButTakeOneAtIt() {
    final String longest = "s".repeat(RequestValidator.MAX_SESSION_ID_CHARS);
    assertThat(validator.rejection("seq-1", request().setSessionId(longest).build())).isEmpty();
    assertThat(validator.rejection("seq-1", request().setSessionId(longest + "s").build())).hasValueSatisfying(
        reason -> assertThat(reason).contains("sessionId has 257 characters"));
  }

  @Test
  void shouldRejectAKeyThatIsNotTheSequenceId() {
    assertThat(validator.rejection("other", request().build())).hasValueSatisfying(
        reason -> assertThat(reason).contains("key the record by its sequence id"));
  }

  @Test
  void shouldRejectTokenLimitsOutOfRange() {
    assertThat(validator.rejection("seq-1", request().setMaxOutputTokens(0).build())).isPresent();
    assertThat(validator.rejection("seq-1", request().setMaxOutputTokens(1025).build())).hasValueSatisfying(
        reason -> assertThat(reason).contains("between 1 and 1024"));
  }

  @Test
  void shouldRejectARequestWithoutPromptOrMessages() {
    assertThat(validator.rejection("seq-1", request().setPrompt(null).build())).hasValueSatisfying(
        reason -> assertThat(reason).contains("neither a prompt nor messages"));
  }

  @Test
  void shouldRejectAPromptOverTheSizeLimit() {
    assertThat(validator.rejection("seq-1", request().setPrompt("x".repeat(101)).build())).hasValueSatisfying(
        reason -> assertThat(reason).contains("101 characters"));
  }

  @Test
  void shouldRejectAReplyTopicThatIsThePipelinesOwnOrNotATopicName() {
    assertThat(validator.replyTopicProblem("inference.dispatch.v1"))
        .hasValueSatisfying(reason -> assertThat(reason).contains("one of the pipeline's own topics"));
    assertThat(validator.replyTopicProblem("my replies"))
        .hasValueSatisfying(reason -> assertThat(reason).contains("not a valid topic name"));
    assertThat(validator.replyTopicProblem("client-7.replies")).isEmpty();
  }

  private static InferenceRequest.Builder request() {
    return InferenceRequest.newBuilder()
        .setSequenceId("seq-1").setTenantId("acme").setPrompt("Tell me a story").setMaxOutputTokens(64)
        .setSubmittedAtMs(0);
  }
}
