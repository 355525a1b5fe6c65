package io.zerolayer.worker.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.worker.SequencePrefixClient;
import io.zerolayer.worker.SequencePrefixException;
import io.zerolayer.worker.StandInTokenBuffer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(30)
class OpenAiCompatibleEngineTest {

  private static final String PROMPT = "Explain stream cut-over:";
  private static final String SEQUENCE = "seq-42";
  private static final long SEED = 7L;

  private final StandInCompletionServer server = new StandInCompletionServer();
  private final StandInTokenBuffer tokenBuffer = new StandInTokenBuffer();
  private final OpenAiCompatibleEngine engine = engine(tokenBuffer.url());

  @AfterEach
  void stop() {
    engine.close();
    server.close();
    tokenBuffer.close();
  }

  private OpenAiCompatibleEngine engine(final String tokenBufferUrl) {
    final SequencePrefixClient prefixes =
        new SequencePrefixClient(tokenBufferUrl, StandInTokenBuffer.TOKEN, Duration.ofMillis(500),
            Duration.ofMillis(10));
    return new OpenAiCompatibleEngine(server.baseUrl(), StandInCompletionServer.MODEL, "", Duration.ofMillis(500),
        Duration.ofSeconds(10), prefixes);
  }

  private static DispatchTask task(final int maxOutputTokens, final int resumeFromIndex) {
    return DispatchTask.newBuilder().setSequenceId(SEQUENCE).setEpoch(resumeFromIndex == 0 ? 1 : 2)
        .setInstanceId("gpu-1").setPrompt(PROMPT).setInputTokens(6).setMaxOutputTokens(maxOutputTokens)
        .setSeed(SEED).setResumeFromIndex(resumeFromIndex).setTraceId("trace-1").setDispatchedAtMs(1L).build();
  }

  @Test
  void shouldStreamEveryTokenInOrderAndEndWithStopWhenTheModelEndsTheText() throws Exception {
    final RecordingSink sink = new RecordingSink();

    final String finish = engine.generate(task(500, 0), sink);

    assertThat(finish).isEqualTo("stop");
    assertThat(sink.tokens()).isNotEmpty().hasSizeLessThan(500)
        .containsExactlyElementsOf(StandInModel.continuation(PROMPT, 500));
    assertThat(sink.breaches()).isEmpty();
    final JsonNode request = server.requests.get(0);
    assertThat(request.path("model").asText()).isEqualTo(StandInCompletionServer.MODEL);
    assertThat(request.path("prompt").asText()).isEqualTo(PROMPT);
    assertThat(request.path("max_tokens").asInt()).isEqualTo(500);
    assertThat(request.path("seed").asLong()).isEqualTo(SEED);
    assertThat(request.path("temperature").asDouble()).isZero();
    assertThat(request.path("stream").asBoolean()).isTrue();
  }

  @Test
  void shouldEndWithLengthWhenMaxOutputTokensIsReached() throws Exception {
    final RecordingSink sink = new RecordingSink();

    final String finish = engine.generate(task(10, 0), sink);

    assertThat(finish).isEqualTo("length");
    assertThat(sink.tokens()).containsExactlyElementsOf(StandInModel.continuation(PROMPT, 10)).hasSize(10);
  }

  @ParameterizedTest(name = "resume from index {0}")
  @ValueSource(ints = {1, 7, 20})
  void shouldEmitExactlyTheMissingTokensSoThatPrefixAndResumeMatchAnUninterruptedRunByteForByte(final int k)
      throws Exception {
    final RecordingSink uninterrupted = new RecordingSink();
    final String uninterruptedFinish = engine.generate(task(500, 0), uninterrupted);
    final List<String> all = uninterrupted.tokens();
    assertThat(all).hasSizeGreaterThan(k).anyMatch(token -> !StandardCharsets.US_ASCII.newEncoder().canEncode(token));
    tokenBuffer.holds(SEQUENCE, all.subList(0, k));
    final RecordingSink resumed = new RecordingSink();

    final String resumedFinish = engine.generate(task(500, k), resumed);

    assertThat(resumedFinish).isEqualTo(uninterruptedFinish);
    assertThat(resumed.tokens()).containsExactlyElementsOf(all.subList(k, all.size()));
    final String prefixText = String.join("", all.subList(0, k));
    assertThat((prefixText + String.join("", resumed.tokens())).getBytes(StandardCharsets.UTF_8))
        .isEqualTo(String.join("", all).getBytes(StandardCharsets.UTF_8));
    final JsonNode resumeRequest = server.requests.get(1);
    assertThat(resumeRequest.path("prompt").asText()).isEqualTo(PROMPT + prefixText);
    assertThat(resumeRequest.path("max_tokens").asInt()).isEqualTo(500 - k);
  }

  @Test
  void shouldAskOnlyForTheRemainingTokensWhenResumingALengthLimitedRun() throws Exception {
    final List<String> all = StandInModel.continuation(PROMPT, 12);
    tokenBuffer.holds(SEQUENCE, all.subList(0, 5));
    final RecordingSink resumed = new RecordingSink();

    assertThat(engine.generate(task(12, 5), resumed)).isEqualTo("length");
    assertThat(resumed.tokens()).containsExactlyElementsOf(all.subList(5, 12));
  }

  @Test
  void shouldFinishWithoutCallingTheServerWhenEveryTokenIsAlreadyPersisted() throws Exception {
    final RecordingSink sink = new RecordingSink();

    assertThat(engine.generate(task(12, 12), sink)).isEqualTo("length");
    assertThat(sink.tokens()).isEmpty();
    assertThat(server.requests).isEmpty();
    assertThat(tokenBuffer.calls).hasValue(0);
  }

  @Test
  void shouldStopAndCloseTheStreamWhenCancelledWhileTheServerIsSilent() throws Exception {
    server.stallAfter(3);
    final RecordingSink sink = new RecordingSink(3);

    final String finish = engine.generate(task(500, 0), sink);

    assertThat(finish).isEqualTo(StreamedCompletion.CANCELLED);
    assertThat(sink.tokens()).containsExactlyElementsOf(StandInModel.continuation(PROMPT, 3));
    assertThat(sink.breaches()).isEmpty();
    server.close();
    assertThat(server.clientClosed.await(10, TimeUnit.SECONDS)).as("the server saw the stream closed").isTrue();
  }

  @Test
  void shouldStopWhenCancelledBeforeTheFirstTokenArrives() throws Exception {
    server.stallAfter(0);
    final RecordingSink sink = new RecordingSink();
    final CompletableFuture<String> finish = CompletableFuture.supplyAsync(() -> generate(sink));
    assertThat(server.stalled.await(10, TimeUnit.SECONDS)).isTrue();

    sink.cancel();

    assertThat(finish.get(5, TimeUnit.SECONDS)).isEqualTo(StreamedCompletion.CANCELLED);
    assertThat(sink.wasStarted()).as("started() waits for the first byte of the stream").isFalse();
    assertThat(sink.tokens()).isEmpty();
  }

  @Test
  void shouldNameTheTimeoutAndTheVariableWhenTheServerDoesNotAnswerInTime() throws Exception {
    server.stallAfter(0);
    try (OpenAiCompatibleEngine impatient = new OpenAiCompatibleEngine(server.baseUrl(), StandInCompletionServer.MODEL,
        "", Duration.ofMillis(500), Duration.ofMillis(300), new SequencePrefixClient(tokenBuffer.url(),
            StandInTokenBuffer.TOKEN, Duration.ofMillis(500), Duration.ZERO))) {
      assertThatThrownBy(() -> impatient.generate(task(50, 0), new RecordingSink()))
          .isInstanceOf(InferenceServerException.class)
          .hasMessageContaining(server.baseUrl() + "/v1/completions did not answer within 300 ms")
          .hasMessageContaining("ZEROLAYER_OPENAI_WORKER_RESPONSE_TIMEOUT_MS");
    }
  }

  @Test
  void shouldStopWithInterruptedExceptionWhenTheTaskThreadIsInterruptedWhileTheServerIsSilent() throws Exception {
    server.stallAfter(2);
    final CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    final Thread task = new Thread(() -> {
      try {
        engine.generate(task(500, 0), new RecordingSink());
        thrown.complete(null);
      } catch (final IOException | InterruptedException | RuntimeException e) {
        thrown.complete(e);
      }
    });
    task.start();
    assertThat(server.stalled.await(10, TimeUnit.SECONDS)).isTrue();

    task.interrupt();

    assertThat(thrown.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
  }

  private String generate(final RecordingSink sink) {
    try {
      return engine.generate(task(500, 0), sink);
    } catch (final IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void shouldNameTheStatusAndTheBodyWhenTheServerAnswers500() {
    server.failWith("{\"object\":\"error\",\"message\":\"CUDA out of memory\",\"type\":\"InternalServerError\"}");

    assertThatThrownBy(() -> engine.generate(task(50, 0), new RecordingSink()))
        .isInstanceOf(InferenceServerException.class)
        .hasMessageContaining(server.baseUrl() + "/v1/completions")
        .hasMessageContaining("HTTP 500")
        .hasMessageContaining("CUDA out of memory");
  }

  @Test
  void shouldFailWhenTheStreamEndsWithoutAFinishReason() {
    server.dropAfter(4);
    final RecordingSink sink = new RecordingSink();

    assertThatThrownBy(() -> engine.generate(task(50, 0), sink))
        .isInstanceOf(InferenceServerException.class)
        .hasMessageContaining("without a finish_reason");
    assertThat(sink.tokens()).hasSize(4);
  }

  @Test
  void shouldNameTheUrlAndTheVariableWhenTokenBufferIsUnreachable() throws Exception {
    final String closed = "http://127.0.0.1:" + freePort();
    try (OpenAiCompatibleEngine unreachable = engine(closed)) {
      assertThatThrownBy(() -> unreachable.generate(task(50, 5), new RecordingSink()))
          .isInstanceOf(SequencePrefixException.class)
          .hasMessageContaining("token-buffer is not reachable at " + closed + "/v1/sequences/" + SEQUENCE)
          .hasMessageContaining("ZEROLAYER_OPENAI_WORKER_SEQUENCE_QUERY_URL");
    }
    assertThat(server.requests).as("nothing is generated without the prefix").isEmpty();
  }

  @Test
  void shouldNameTheUrlAndTheVariableWhenTheServerIsUnreachable() throws Exception {
    final String closed = "http://127.0.0.1:" + freePort();
    try (OpenAiCompatibleEngine unreachable = new OpenAiCompatibleEngine(closed, "m", "", Duration.ofMillis(500),
        Duration.ofSeconds(5), new SequencePrefixClient(tokenBuffer.url(), StandInTokenBuffer.TOKEN,
            Duration.ofMillis(500), Duration.ZERO))) {
      assertThatThrownBy(() -> unreachable.generate(task(50, 0), new RecordingSink()))
          .isInstanceOf(InferenceServerException.class)
          .hasMessageContaining(closed + "/v1/completions")
          .hasMessageContaining("ZEROLAYER_OPENAI_WORKER_BASE_URL");
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
