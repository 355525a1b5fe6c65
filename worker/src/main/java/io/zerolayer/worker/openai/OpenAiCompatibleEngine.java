package io.zerolayer.worker.openai;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InstanceCommand;
import io.zerolayer.worker.InferenceEngine;
import io.zerolayer.worker.SequencePrefixClient;
import io.zerolayer.worker.TokenSink;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link InferenceEngine} in front of an OpenAI-compatible server (vLLM, SGLang, llama.cpp
 * server): each task is one streamed {@code POST /v1/completions} with temperature 0 and the
 * task's seed, and each streamed text delta is one token. A resume task reads the persisted
 * prefix from token-buffer, sends the prompt followed by the prefix text, and asks only for the
 * tokens still missing, so greedy decoding continues where the stalled attempt stopped.
 */
public final class OpenAiCompatibleEngine implements InferenceEngine, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OpenAiCompatibleEngine.class);
  /** How soon a cancelled task's call is aborted, even while the server sends nothing. */
  static final long CANCEL_CHECK_INTERVAL_MS = 50;

  private final ObjectMapper json = new ObjectMapper();
  private final URI completions;
  private final String model;
  private final String apiKey;
  private final Duration responseTimeout;
  private final SequencePrefixClient prefixes;
  private final HttpClient http;
  private final ScheduledExecutorService cancelChecks;

  /**
   * @param baseUrl the server's address, e.g. {@code http://127.0.0.1:8000}
   * @param model the model name the server serves
   * @param apiKey sent as a bearer token; empty for none
   * @param connectTimeout how long to wait for a connection
   * @param responseTimeout how long to wait for the answer's status line and headers
   * @param prefixes where resume tasks read the persisted prefix
   */
  public OpenAiCompatibleEngine(final String baseUrl, final String model, final String apiKey,
      final Duration connectTimeout, final Duration responseTimeout, final SequencePrefixClient prefixes) {
    requireNonNull(baseUrl, "baseUrl");
    this.completions = URI.create((baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl)
        + "/v1/completions");
    this.model = requireNonNull(model, "model");
    this.apiKey = requireNonNull(apiKey, "apiKey");
    this.responseTimeout = requireNonNull(responseTimeout, "responseTimeout");
    this.prefixes = requireNonNull(prefixes, "prefixes");
    // The servers speak HTTP/1.1; an h2c upgrade attempt on a plain-text POST only costs a round trip.
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(requireNonNull(connectTimeout, "connectTimeout")).build();
    this.cancelChecks = Executors.newSingleThreadScheduledExecutor(r -> {
      final Thread thread = new Thread(r, "openai-engine-cancel-checks");
      thread.setDaemon(true);
      return thread;
    });
  }

  @Override
  public String generate(final DispatchTask task, final TokenSink sink) throws IOException, InterruptedException {
    final int resumeFrom = task.getResumeFromIndex();
    final int missing = task.getMaxOutputTokens() - resumeFrom;
    if (missing <= 0) {
      // Cut over after the last token but before the final chunk: only the finish is left to say.
      sink.started();
      return "length";
    }
    final String prompt = task.getPrompt() + String.join("", prefix(task));
    final StreamedCompletion call = new StreamedCompletion(http, request(task, prompt, missing), json,
        completions.toString(), responseTimeout, sink);
    final ScheduledFuture<?> checks = cancelChecks.scheduleWithFixedDelay(call::stopIfCancelled,
        CANCEL_CHECK_INTERVAL_MS, CANCEL_CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
    try {
      return call.finishReason();
    } finally {
      checks.cancel(false);
    }
  }

  /** The tokens a resumed attempt continues after: from its task, or from a router that predates that, asked for. */
  private List<String> prefix(final DispatchTask task) throws IOException, InterruptedException {
    final int resumeFrom = task.getResumeFromIndex();
    return task.getPrefix().size() == resumeFrom ? task.getPrefix() : prefixes.prefix(task.getSequenceId(), resumeFrom);
  }

  private HttpRequest request(final DispatchTask task, final String prompt, final int maxTokens) {
    final ObjectNode body = json.createObjectNode()
        .put("model", model)
        .put("prompt", prompt)
        .put("max_tokens", maxTokens)
        .put("seed", task.getSeed())
        .put("temperature", 0)
        .put("stream", true);
    if (task.getIgnoreEos()) {
      // vLLM's and SGLang's extension: generate the whole limit.
      body.put("ignore_eos", true);
    }
    final HttpRequest.Builder request = HttpRequest.newBuilder(completions)
        .timeout(responseTimeout)
        .header("Content-Type", "application/json")
        .header("Accept", "text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
    if (!apiKey.isEmpty()) {
      request.header("Authorization", "Bearer " + apiKey);
    }
    return request.build();
  }

  /** The server manages its own KV cache; pre-warm and pre-clear have no OpenAI-compatible call. */
  @Override
  public void onCommand(final InstanceCommand command) {
    LOG.debug("{} for {} left to the inference server at {}", command.getType(), command.getInstanceId(),
        completions);
  }

  @Override
  public void close() {
    cancelChecks.shutdownNow();
  }
}
