package io.zerolayer.tokenbuffer.query;

import static java.util.Objects.requireNonNull;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.zerolayer.runtime.QueryForwarder;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET /v1/sequences/{id}}: one sequence as JSON. A caller that sends
 * {@code Authorization: Bearer <tokenbuffer.query.token>} (the gateways and workers) may read
 * any; one that sends a tenant's API key as its bearer token only the sequences of that tenant,
 * and is told of any other what it would be told of one that does not exist (404); 401 without
 * either. A sequence held by another instance is fetched from it (with the caller's credential,
 * which that instance checks again); 503 with {@code Retry-After} while the store is moving;
 * read-only.
 */
public final class SequenceResource {

  private final Supplier<SequenceQueries> queries;
  private static final String BEARER = "Bearer ";

  private final byte[] authorization;
  private final TenantDirectory tenants;
  private final QueryForwarder forwarder = new QueryForwarder();

  /**
   * @param queries the queries, or null until the app runs
   * @param token what the gateways and workers send as their bearer token
   * @param tenants the tenants who may read their own sequences with their API key (none: only the token reads)
   */
  public SequenceResource(final Supplier<SequenceQueries> queries, final String token,
      final TenantDirectory tenants) {
    this.queries = requireNonNull(queries, "queries");
    this.authorization = (BEARER + requireNonNull(token, "token")).getBytes(StandardCharsets.UTF_8);
    this.tenants = requireNonNull(tenants, "tenants");
  }

  /** Adds the route. */
  public void register(final Javalin app) {
    app.get("/v1/sequences/{id}", this::get);
  }

  private void get(final Context ctx) throws IOException, InterruptedException {
    final String sent = ctx.header("Authorization");
    final boolean service = sent != null && MessageDigest.isEqual(authorization, sent.getBytes(StandardCharsets.UTF_8));
    final Optional<Tenant> tenant = service || sent == null || !sent.startsWith(BEARER) ? Optional.empty()
        : tenants.findByKey(sent.substring(BEARER.length()));
    if (!service && tenant.isEmpty()) {
      ctx.status(401).json(Map.of("error", "send Authorization: Bearer <tokenbuffer.query.token>, or your tenant's"
          + " API key as the bearer token"));
      return;
    }
    final SequenceQueries current = queries.get();
    if (current == null) {
      unavailable(ctx, "token-buffer is starting");
      return;
    }
    final String id = ctx.pathParam("id");
    final SequenceQueries.Lookup lookup = current.find(id);
    if (lookup instanceof SequenceQueries.Found found
        && (service || tenant.get().id().equals(found.sequence().tenantId()))) {
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
