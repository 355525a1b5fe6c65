package io.zerolayer.tokenbuffer.query;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.zerolayer.runtime.QueryForwarder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /v1/sequences/{id}}: one sequence as JSON, for a caller that sends
 * {@code Authorization: Bearer <tokenbuffer.query.token>} (any tenant's text is here: the
 * gateways and workers hold the token, tenants never), 401 otherwise. A sequence held by another
 * instance is fetched from it; 503 with {@code Retry-After} while the store is moving; read-only.
 */
public final class SequenceResource {

  private final Supplier<SequenceQueries> queries;
  private final byte[] authorization;
  private final QueryForwarder forwarder = new QueryForwarder();

  /**
   * @param queries the queries, or null until the app runs
   * @param token what callers must send as their bearer token
   */
  public SequenceResource(final Supplier<SequenceQueries> queries, final String token) {
    this.queries = requireNonNull(queries, "queries");
    this.authorization = ("Bearer " + requireNonNull(token, "token")).getBytes(StandardCharsets.UTF_8);
  }

  /** Adds the route. */
  public void register(final Javalin app) {
    app.get("/v1/sequences/{id}", this::get);
  }

  private void get(final Context ctx) throws IOException, InterruptedException {
    final String sent = ctx.header("Authorization");
    if (sent == null || !MessageDigest.isEqual(authorization, sent.getBytes(StandardCharsets.UTF_8))) {
      ctx.status(401).json(Map.of("error", "send Authorization: Bearer <tokenbuffer.query.token>"));
      return;
    }
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
