package io.zerolayer.tokenbuffer.query;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.zerolayer.runtime.QueryForwarder;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /v1/sequences/{id}}: one sequence as JSON. A sequence held by another instance is
 * fetched from it; 503 with {@code Retry-After} while the store is moving; read-only.
 */
public final class SequenceResource {

  private final Supplier<SequenceQueries> queries;
  private final QueryForwarder forwarder = new QueryForwarder();

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
      forwarder.forward(ctx, other.host(), other.port());
    } else if (lookup instanceof SequenceQueries.Unavailable why) {
      unavailable(ctx, why.reason());
    } else {
      ctx.status(404).json(Map.of("error", "no sequence " + id));
    }
  }

  private static void unavailable(final Context ctx, final String reason) {
    QueryForwarder.unavailable(ctx, reason);
  }
}
