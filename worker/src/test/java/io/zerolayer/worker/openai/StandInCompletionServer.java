package io.zerolayer.worker.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An OpenAI-compatible completions server for tests, streaming like vLLM: one
 * {@code data: {"object": "text_completion", ...}} event per token, the finish reason on the
 * last event, then {@code data: [DONE]}. Text comes from {@link StandInModel}.
 */
final class StandInCompletionServer implements AutoCloseable {

  static final String MODEL = "stand-in-model";
  private static final ObjectMapper JSON = new ObjectMapper();

  final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  /** Counted down when a write fails because the client closed the stream. */
  final CountDownLatch clientClosed = new CountDownLatch(1);
  final CountDownLatch stalled = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final Javalin http;
  private volatile int stallAfterTokens = Integer.MAX_VALUE;
  private volatile String failure;
  private volatile Integer dropAfterTokens;

  StandInCompletionServer() {
    http = Javalin.create(config -> config.showJavalinBanner = false);
    http.post("/v1/completions", this::complete);
    http.start("127.0.0.1", 0);
  }

  String baseUrl() {
    return "http://127.0.0.1:" + http.port();
  }

  /** Sends this many tokens, then nothing until {@link #close()}. */
  void stallAfter(final int tokens) {
    stallAfterTokens = tokens;
  }

  /** Answers every completion with HTTP 500 and this body. */
  void failWith(final String body) {
    failure = body;
  }

  /** Ends the response after this many tokens, without a finish reason or {@code [DONE]}. */
  void dropAfter(final int tokens) {
    dropAfterTokens = tokens;
  }

  private void complete(final Context ctx) throws IOException, InterruptedException {
    final JsonNode request = JSON.readTree(ctx.body());
    requests.add(request);
    if (failure != null) {
      ctx.status(500).contentType("application/json").result(failure);
      return;
    }
    ctx.res().setStatus(200);
    ctx.res().setContentType("text/event-stream");
    final OutputStream out = ctx.res().getOutputStream();
    try {
      stream(out, request.path("prompt").asText(), request.path("max_tokens").asInt());
    } catch (final IOException e) {
      clientClosed.countDown();
    }
  }

  private void stream(final OutputStream out, final String prompt, final int maxTokens)
      throws IOException, InterruptedException {
    final StringBuilder text = new StringBuilder(prompt);
    for (int i = 0; i < maxTokens; i++) {
      if (i == stallAfterTokens) {
        stalled.countDown();
        release.await(30, TimeUnit.SECONDS);
        probeClient(out);
      }
      if (dropAfterTokens != null && i == dropAfterTokens) {
        return;
      }
      if (StandInModel.ends(text.toString())) {
        send(out, event("", "stop"));
        break;
      }
      final String token = StandInModel.next(text.toString());
      text.append(token);
      send(out, event(token, i == maxTokens - 1 ? "length" : null));
    }
    send(out, JSON.createObjectNode().put("object", "text_completion").put("model", MODEL)
        .<ObjectNode>set("choices", JSON.createArrayNode()).toString());
    send(out, "[DONE]");
  }

  /**
   * Writes SSE comments for a while: a client that closed the stream makes one of them fail
   * (the first write after a close may still land in a buffer, so one write is not enough).
   */
  private static void probeClient(final OutputStream out) throws IOException, InterruptedException {
    for (int i = 0; i < 200; i++) {
      out.write(": still here\n\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
      Thread.sleep(10);
    }
  }

  private static String event(final String text, final String finishReason) {
    final ObjectNode chunk = JSON.createObjectNode().put("id", "cmpl-stand-in").put("object", "text_completion")
        .put("created", 1_750_000_000L).put("model", MODEL);
    chunk.putArray("choices").addObject().put("index", 0).put("text", text).putNull("logprobs")
        .put("finish_reason", finishReason).putNull("stop_reason");
    chunk.putNull("usage");
    return chunk.toString();
  }

  private static void send(final OutputStream out, final String data) throws IOException {
    out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  @Override
  public void close() {
    release.countDown();
    http.stop();
  }
}
