package io.zerolayer.worker.openai;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zerolayer.runtime.EnvironmentConfig;
import io.zerolayer.worker.Quoted;
import io.zerolayer.worker.TokenSink;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One streamed completion call: sends the request, hands each text delta to the sink as one
 * token, and stops (aborting the call or closing its stream) once the sink is cancelled.
 */
final class StreamedCompletion {

  static final String DONE = "[DONE]";
  static final String CANCELLED = "cancelled";

  private final ObjectMapper json;
  private final String server;
  private final Duration responseTimeout;
  private final TokenSink sink;
  private final CompletableFuture<HttpResponse<InputStream>> pending;
  private final AtomicReference<InputStream> body = new AtomicReference<>();

  /**
   * Sends the request.
   *
   * @param server the URL the request goes to, for messages
   * @param responseTimeout the request's timeout, for messages
   */
  StreamedCompletion(final HttpClient http, final HttpRequest request, final ObjectMapper json, final String server,
      final Duration responseTimeout, final TokenSink sink) {
    this.json = requireNonNull(json, "json");
    this.server = requireNonNull(server, "server");
    this.responseTimeout = requireNonNull(responseTimeout, "responseTimeout");
    this.sink = requireNonNull(sink, "sink");
    this.pending = http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
  }

  /** Stops the call if the sink was cancelled; safe to call from any thread, any number of times. */
  void stopIfCancelled() {
    if (!sink.cancelled()) {
      return;
    }
    pending.cancel(true);
    final InputStream stream = body.get();
    if (stream != null) {
      try {
        stream.close();
      } catch (final IOException e) {
        // Closing is how the reading thread is woken; a failure to close leaves nothing to undo.
      }
    }
  }

  /** Waits for the answer and reads its stream; the finish reason, or {@code cancelled}. */
  String finishReason() throws IOException, InterruptedException {
    final HttpResponse<InputStream> response;
    try {
      response = pending.get();
    } catch (final CancellationException e) {
      return CANCELLED;
    } catch (final InterruptedException e) {
      pending.cancel(true);
      throw e;
    } catch (final ExecutionException e) {
      if (sink.cancelled()) {
        return CANCELLED;
      }
      if (e.getCause() instanceof HttpTimeoutException) {
        throw new InferenceServerException("Inference server at " + server + " did not answer within "
            + responseTimeout.toMillis() + " ms; check that it is running and not overloaded, or raise "
            + EnvironmentConfig.variable(OpenAiWorkerConfig.RESPONSE_TIMEOUT_MS), e.getCause());
      }
      throw new InferenceServerException("Inference server at " + server + " is not reachable or did not answer ("
          + e.getCause() + "); set " + EnvironmentConfig.variable(OpenAiWorkerConfig.BASE_URL)
          + " to the server's address and check that it is running", e.getCause());
    }
    try (InputStream stream = response.body()) {
      body.set(stream);
      if (response.statusCode() != 200) {
        throw new InferenceServerException("Inference server at " + server + " answered HTTP "
            + response.statusCode() + ": " + Quoted.start(
                new String(stream.readNBytes(Quoted.CHARS * 4), StandardCharsets.UTF_8)));
      }
      stopIfCancelled();
      return read(new ServerSentEvents(stream, sink::started));
    } catch (final IOException e) {
      if (Thread.interrupted()) {
        throw new InterruptedException("the task's thread was interrupted while reading " + server);
      }
      if (sink.cancelled()) {
        return CANCELLED;
      }
      throw e;
    }
  }

  private String read(final ServerSentEvents events) throws IOException {
    String finishReason = null;
    for (String data = events.next(); data != null && !sink.cancelled(); data = events.next()) {
      if (DONE.equals(data.strip())) {
        break;
      }
      final CompletionDelta delta = CompletionDelta.parse(json, data, server);
      if (!delta.text().isEmpty()) {
        sink.emit(List.of(delta.text()));
      }
      if (delta.finishReason() != null) {
        finishReason = delta.finishReason();
      }
    }
    if (sink.cancelled()) {
      return CANCELLED;
    }
    if (finishReason == null) {
      throw new InferenceServerException("Inference server at " + server
          + " ended its stream without a finish_reason: the connection dropped or the server stopped");
    }
    return finishReason;
  }
}
