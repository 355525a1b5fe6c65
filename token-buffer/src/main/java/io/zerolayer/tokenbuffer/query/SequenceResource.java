package io.zerolayer.tokenbuffer.query;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /v1/sequences/{id}}: one sequence as JSON. A sequence held by another instance is
 * fetched from it; 503 with {@code Retry-After} while the store is moving; read-only.
 */
public final class SequenceResource {

  private static final Duration FORWARD_TIMEOUT = Duration.ofSeconds(5);

  private final Supplier<SequenceQueries> queries;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(FORWARD_TIMEOUT).build();

  /**
   * @param queries the queries, or null until the app runs
   */
  public SequenceResource(final Supplier<SequenceQueries> queries) {
    this.queries = requireNonNull(queries, "queries");
  }

  /** Adds the route. */
  public void register(final Javalin app) {
    app.get("/v1/sequences/{id}", this::get);
  }

  private void get(final Context ctx) throws IOException, InterruptedException {
    final SequenceQueries current = queries.get();
    if (current == null) {
      unavailable(ctx, "token-buffer is starting");
      return;
    }
    final String id = ctx.pathParam("id");
    final SequenceQueries.Lookup lookup = current.find(id);
    if (lookup instanceof SequenceQueries.Found found) {
      ctx.json(found.sequence());
    } else if (lookup instanceof SequenceQueries.Elsewhere other) {
      forward(ctx, other, id);
    } else if (lookup instanceof SequenceQueries.Unavailable why) {
      unavailable(ctx, why.reason());
    } else {
      ctx.status(404).json(Map.of("error", "no sequence " + id));
    }
  }

  private void forward(final Context ctx, final SequenceQueries.Elsewhere other, final String id)
      throws IOException, InterruptedException {
    final HttpResponse<String> answer = http.send(HttpRequest.newBuilder(
        URI.create("http://" + other.host() + ":" + other.port() + "/v1/sequences/" + id))
        .timeout(FORWARD_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    ctx.status(answer.statusCode()).contentType("application/json").result(answer.body());
  }

  private static void unavailable(final Context ctx, final String reason) {
    ctx.header("Retry-After", "1").status(503).json(Map.of("error", reason));
  }
}
