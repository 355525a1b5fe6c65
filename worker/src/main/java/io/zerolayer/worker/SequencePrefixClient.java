package io.zerolayer.worker;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zerolayer.contract.sequence.SequenceView;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Reads what token-buffer has persisted of a sequence, through its interactive query
 * {@code GET /v1/sequences/{id}}, so that a backup worker can continue it. Asks again a few
 * times while token-buffer answers 503 (its store is moving during a rebalance).
 */
public final class SequencePrefixClient {

  /** Calls of one lookup while token-buffer answers 503. */
  static final int ATTEMPTS = 3;
  /** token-buffer may forward the lookup to the instance that holds the sequence: one more hop. */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  private final ObjectMapper json = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private final String queryUrl;
  private final Duration retryBackoff;
  private final HttpClient http;

  /**
   * @param queryUrl token-buffer's HTTP address, e.g. {@code http://token-buffer:8084}
   * @param connectTimeout how long to wait for a connection
   * @param retryBackoff the pause before asking again after a 503
   */
  public SequencePrefixClient(final String queryUrl, final Duration connectTimeout, final Duration retryBackoff) {
    requireNonNull(queryUrl, "queryUrl");
    this.queryUrl = queryUrl.endsWith("/") ? queryUrl.substring(0, queryUrl.length() - 1) : queryUrl;
    this.retryBackoff = requireNonNull(retryBackoff, "retryBackoff");
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(requireNonNull(connectTimeout, "connectTimeout")).build();
  }

  /**
   * The first {@code count} tokens of a sequence, in order.
   *
   * @throws SequencePrefixException when the sequence is unknown, holds fewer tokens, or
   *     token-buffer cannot be reached or keeps answering 503
   */
  public List<String> prefix(final String sequenceId, final int count) throws IOException, InterruptedException {
    requireNonNull(sequenceId, "sequenceId");
    if (count == 0) {
      return List.of();
    }
    final URI uri = URI.create(queryUrl + "/v1/sequences/"
        + URLEncoder.encode(sequenceId, StandardCharsets.UTF_8).replace("+", "%20"));
    HttpResponse<String> response = get(uri);
    for (int attempt = 2; attempt <= ATTEMPTS && response.statusCode() == 503; attempt++) {
      Thread.sleep(retryBackoff.toMillis());
      response = get(uri);
    }
    return tokens(uri, response, sequenceId, count);
  }

  private HttpResponse<String> get(final URI uri) throws SequencePrefixException, InterruptedException {
    final HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
        .header("Accept", "application/json").GET().build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (final IOException e) {
      throw new SequencePrefixException("token-buffer is not reachable at " + uri + " (" + e + "); point the"
          + " worker's sequence query URL (OpenAiWorkerApp: ZEROLAYER_OPENAI_WORKER_SEQUENCE_QUERY_URL) at"
          + " token-buffer's HTTP address (its tokenbuffer.http.port, 8084 by default) and check it is running", e);
    }
  }

  private List<String> tokens(final URI uri, final HttpResponse<String> response, final String sequenceId,
      final int count) throws SequencePrefixException {
    final int status = response.statusCode();
    if (status == 404) {
      throw new SequencePrefixException("token-buffer at " + uri + " holds no sequence " + sequenceId
          + " (never seen, or removed after its retention): it cannot be resumed from index " + count);
    }
    if (status == 503) {
      throw new SequencePrefixException("token-buffer at " + uri + " still answered 503 after " + ATTEMPTS
          + " calls (its sequence store is moving): " + Quoted.start(response.body()));
    }
    if (status != 200) {
      throw new SequencePrefixException("token-buffer at " + uri + " answered HTTP " + status + ": "
          + Quoted.start(response.body()));
    }
    final SequenceView view;
    try {
      view = json.readValue(response.body(), SequenceView.class);
    } catch (final IOException e) {
      throw new SequencePrefixException("token-buffer at " + uri + " answered with a body that is not a sequence: "
          + Quoted.start(response.body()), e);
    }
    final List<String> tokens = view.tokens() == null ? List.of() : view.tokens();
    if (tokens.size() < count) {
      throw new SequencePrefixException("token-buffer at " + uri + " holds " + tokens.size() + " tokens of "
          + sequenceId + ", fewer than the resume index " + count);
    }
    return List.copyOf(tokens.subList(0, count));
  }
}
