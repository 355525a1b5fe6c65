package io.zerolayer.client;

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
import java.util.Optional;

/**
 * Reads what token-buffer has persisted of a sequence, through its interactive query
 * {@code GET /v1/sequences/{id}}: a backup worker continues it from there, a reconnecting client
 * replays it. Asks again a few times while token-buffer answers 503 (its store is moving during
 * a rebalance).
 */
public final class SequenceQuery {

  /** Calls of one lookup while token-buffer answers 503. */
  public static final int ATTEMPTS = 3;
  /** token-buffer may forward the lookup to the instance that holds the sequence: one more hop. */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
  private static final int QUOTED_CHARS = 200;

  private final ObjectMapper json = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private final String queryUrl;
  private final String authorization;
  private final Duration retryBackoff;
  private final HttpClient http;

  /**
   * @param queryUrl token-buffer's HTTP address, e.g. {@code http://token-buffer:8084}
   * @param token token-buffer's {@code tokenbuffer.query.token}, which every query bears
   * @param connectTimeout how long to wait for a connection
   * @param retryBackoff the pause before asking again after a 503
   */
  public SequenceQuery(final String queryUrl, final String token, final Duration connectTimeout,
      final Duration retryBackoff) {
    requireNonNull(queryUrl, "queryUrl");
    this.authorization = "Bearer " + requireNonNull(token, "token");
    this.queryUrl = queryUrl.endsWith("/") ? queryUrl.substring(0, queryUrl.length() - 1) : queryUrl;
    this.retryBackoff = requireNonNull(retryBackoff, "retryBackoff");
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(requireNonNull(connectTimeout, "connectTimeout")).build();
  }

  /** The address a lookup of this sequence asks. */
  public URI uriOf(final String sequenceId) {
    return URI.create(queryUrl + "/v1/sequences/"
        + URLEncoder.encode(requireNonNull(sequenceId, "sequenceId"), StandardCharsets.UTF_8).replace("+", "%20"));
  }

  /**
   * The sequence as token-buffer holds it; empty when it holds none (never seen, or removed after
   * its retention).
   *
   * @throws SequenceQueryException when token-buffer cannot be reached, keeps answering 503, or
   *     answers with something that is not a sequence
   */
  public Optional<SequenceView> find(final String sequenceId) throws SequenceQueryException, InterruptedException {
    final URI uri = uriOf(sequenceId);
    HttpResponse<String> response = get(uri);
    for (int attempt = 2; attempt <= ATTEMPTS && response.statusCode() == 503; attempt++) {
      Thread.sleep(retryBackoff.toMillis());
      response = get(uri);
    }
    final int status = response.statusCode();
    if (status == 404) {
      return Optional.empty();
    }
    if (status == 503) {
      throw new SequenceQueryException("token-buffer at " + uri + " still answered 503 after " + ATTEMPTS
          + " calls (its sequence store is moving): " + quoted(response.body()), null);
    }
    if (status == 401) {
      throw new SequenceQueryException("token-buffer at " + uri + " refused the query token (HTTP 401): give this"
          + " caller the token token-buffer has as tokenbuffer.query.token", null);
    }
    if (status != 200) {
      throw new SequenceQueryException("token-buffer at " + uri + " answered HTTP " + status + ": "
          + quoted(response.body()), null);
    }
    try {
      return Optional.of(json.readValue(response.body(), SequenceView.class));
    } catch (final IOException e) {
      throw new SequenceQueryException("token-buffer at " + uri + " answered with a body that is not a sequence: "
          + quoted(response.body()), e);
    }
  }

  private HttpResponse<String> get(final URI uri) throws SequenceQueryException, InterruptedException {
    final HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
        .header("Accept", "application/json").header("Authorization", authorization).GET().build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (final IOException e) {
      throw new SequenceQueryException("token-buffer is not reachable at " + uri + " (" + e + ")", e);
    }
  }

  private static String quoted(final String body) {
    final String text = body == null ? "" : body.strip();
    return "'" + (text.length() > QUOTED_CHARS ? text.substring(0, QUOTED_CHARS) + "..." : text) + "'";
  }

  /** A lookup that got no usable answer; the message names the address asked and what came back. */
  public static final class SequenceQueryException extends IOException {
    private static final long serialVersionUID = 1L;

    SequenceQueryException(final String message, final Throwable cause) {
      super(message, cause);
    }
  }
}
