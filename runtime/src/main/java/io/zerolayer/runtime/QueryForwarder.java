package io.zerolayer.runtime;

import io.javalin.http.Context;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * Interactive-query plumbing shared by the apps' HTTP resources: asks the app instance that holds
 * a key the same question, and answers 503 with {@code Retry-After} while stores move. A query is
 * forwarded at most once, so two instances that disagree during a rebalance cannot bounce it,
 * and with the caller's {@code Authorization}, which the other instance checks in turn.
 */
public final class QueryForwarder {

  /** Marks a forwarded query. */
  public static final String FORWARDED_HEADER = "X-Zerolayer-Forwarded";
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  /** Answers the query with the answer of the instance at {@code host:port}. */
  public void forward(final Context ctx, final String host, final int port) throws InterruptedException {
    if (ctx.header(FORWARDED_HEADER) != null) {
      unavailable(ctx, "the key is moving between instances of the app");
      return;
    }
    final String query = ctx.queryString() == null ? "" : "?" + ctx.queryString();
    final URI target = URI.create("http://" + host + ":" + port + ctx.path() + query);
    final HttpRequest.Builder request = HttpRequest.newBuilder(target).header(FORWARDED_HEADER, "1").timeout(TIMEOUT);
    final String authorization = ctx.header("Authorization");
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    final HttpResponse<String> answer;
    try {
      answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (final IOException e) {
      // The holder is gone or slow (it may be leaving the group); the key will move or answer again.
      unavailable(ctx, "the app instance holding the key, " + host + ":" + port + ", did not answer: " + e);
      return;
    }
    answer.headers().firstValue("Retry-After").ifPresent(value -> ctx.header("Retry-After", value));
    ctx.status(answer.statusCode()).contentType("application/json").result(answer.body());
  }

  /** 503: ask again in a second. */
  public static void unavailable(final Context ctx, final String reason) {
    ctx.header("Retry-After", "1").status(503).json(Map.of("error", reason));
  }
}
