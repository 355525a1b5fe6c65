package io.zerolayer.bench.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A stand-in for an OpenAI-compatible inference server that streams at a fixed pace, whatever the
 * load: its first token after {@code firstToken}, then one every {@code interval}, until the
 * request's {@code max_tokens}. It speaks chat completions (the benchmark's client, straight to
 * it) and text completions (the worker adapter, through Zerolayer), so both ways reach the same
 * engine with the same pace, and what differs is what lies between client and engine.
 */
public final class PacedEngine implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] WORDS = {" kafka", " token", " stream", " queue", " route", " heat", " map",
      " epoch"};

  private final Javalin http;
  private final Duration firstToken;
  private final Duration interval;

  public PacedEngine(final Duration firstToken, final Duration interval) {
    this.firstToken = firstToken;
    this.interval = interval;
    http = Javalin.create(config -> {
      config.showJavalinBanner = false;
      config.jetty.threadPool = new QueuedThreadPool(1_024, 8);
    });
    http.post("/v1/chat/completions", ctx -> stream(ctx, true));
    http.post("/v1/completions", ctx -> stream(ctx, false));
    http.start("127.0.0.1", 0);
  }

  /** The base URL an OpenAI client is given ({@code http://127.0.0.1:port/v1}). */
  public String baseUrl() {
    return "http://127.0.0.1:" + http.port() + "/v1";
  }

  /** The server's address without {@code /v1}, as the worker adapter takes it. */
  public String root() {
    return "http://127.0.0.1:" + http.port();
  }

  private void stream(final Context ctx, final boolean chat) throws IOException, InterruptedException {
    final JsonNode request = JSON.readTree(ctx.bodyAsBytes());
    final int tokens = Math.max(1, request.path("max_tokens").asInt(request.path("max_completion_tokens").asInt(16)));
    final String model = request.path("model").asText("paced");
    ctx.res().setStatus(200);
    ctx.res().setContentType("text/event-stream");
    final OutputStream out = ctx.res().getOutputStream();
    final long start = System.nanoTime();
    try {
      for (int i = 0; i < tokens; i++) {
        // Paced from the start, so that a slow write does not slow the tokens after it.
        sleepUntil(start + firstToken.toNanos() + i * interval.toNanos());
        send(out, chunk(chat, model, WORDS[i % WORDS.length], i == tokens - 1 ? "length" : null));
      }
      send(out, "[DONE]");
    } catch (final IOException e) {
      // The client went away: stop, as a real server does.
    }
  }

  private static void sleepUntil(final long nanos) throws InterruptedException {
    final long wait = nanos - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private static String chunk(final boolean chat, final String model, final String text, final String finish) {
    final ObjectNode chunk = JSON.createObjectNode().put("id", "paced").put("created", 1_750_000_000L)
        .put("model", model).put("object", chat ? "chat.completion.chunk" : "text_completion");
    final ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    if (chat) {
      choice.putObject("delta").put("content", text);
    } else {
      choice.put("text", text);
    }
    choice.put("finish_reason", finish);
    return chunk.toString();
  }

  private static void send(final OutputStream out, final String data) throws IOException {
    out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  @Override
  public void close() {
    http.stop();
  }
}
