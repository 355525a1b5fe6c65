package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.zerolayer.contract.routing.RoutingReasons;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.SortedSet;

/**
 * The gateway's API: the three completion endpoints and the model list, each behind the API key
 * check, with bodies bounded in size and read by the endpoint's own dialect.
 */
public final class Endpoints {

  /** A body over the limit is still read up to this much, so the client reads the 413 rather than a reset. */
  private static final long DRAIN_LIMIT_BYTES = 64L << 20;

  private final TenantDirectory tenants;
  private final ModelDirectory models;
  private final Relay relay;
  private final Reconnects reconnects;
  private final int maxBodyBytes;
  private final OpenAiChat chat;
  private final OpenAiText text;
  private final AnthropicMessages messages;

  /**
   * @param defaultMaxTokens output tokens of an OpenAI chat request that names no limit
   * @param maxTokens the most output tokens a request may ask for
   */
  public Endpoints(final TenantDirectory tenants, final ModelDirectory models, final Relay relay,
      final Reconnects reconnects, final int maxBodyBytes, final int defaultMaxTokens, final int maxTokens) {
    this.tenants = requireNonNull(tenants, "tenants");
    this.models = requireNonNull(models, "models");
    this.relay = requireNonNull(relay, "relay");
    this.reconnects = requireNonNull(reconnects, "reconnects");
    this.maxBodyBytes = maxBodyBytes;
    this.chat = new OpenAiChat(defaultMaxTokens, maxTokens);
    this.text = new OpenAiText(maxTokens);
    this.messages = new AnthropicMessages(maxTokens);
  }

  /** Adds the routes to the server. */
  public void addTo(final Javalin http) {
    http.post("/v1/chat/completions", ctx -> complete(ctx, chat));
    http.post("/v1/completions", ctx -> complete(ctx, text));
    http.post("/v1/messages", ctx -> complete(ctx, messages));
    http.get("/v1/models", this::listModels);
    http.get("/v1/streams/{id}", this::reconnect);
  }

  /**
   * {@code GET /v1/streams/{id}}: the rest of a request's stream after its {@code Last-Event-ID},
   * in Anthropic's events when the call sends {@code anthropic-version}, in OpenAI's text
   * completion chunks with {@code ?api=completions}, else in chat completion chunks.
   */
  private void reconnect(final Context ctx) throws InterruptedException {
    final Dialect dialect = ctx.header("anthropic-version") != null ? messages
        : "completions".equals(ctx.queryParam("api")) ? text : chat;
    final Optional<Tenant> tenant = tenants.findByKey(apiKey(ctx));
    if (tenant.isEmpty()) {
      HttpAnswers.fail(ctx, dialect, unauthenticated(), null);
      return;
    }
    final String requestId = ctx.pathParam("id");
    if (!SequenceIds.tenantOf(requestId).equals(Optional.of(tenant.get().id()))) {
      HttpAnswers.fail(ctx, dialect, Reconnects.notFound(requestId), null);
      return;
    }
    final String lastEventId = ctx.header("Last-Event-ID");
    final int received;
    try {
      received = lastEventId == null || lastEventId.isBlank() ? 0 : Integer.parseInt(lastEventId.strip());
    } catch (final NumberFormatException e) {
      HttpAnswers.fail(ctx, dialect, new Failure(Failure.Kind.BAD_REQUEST, "Last-Event-ID '" + lastEventId
          + "' is not an event id of this stream: send the id of the last event received", "Last-Event-ID", null),
          requestId);
      return;
    }
    if (received < 0) {
      HttpAnswers.fail(ctx, dialect, new Failure(Failure.Kind.BAD_REQUEST, "Last-Event-ID must not be negative",
          "Last-Event-ID", null), requestId);
      return;
    }
    reconnects.resume(ctx, dialect, requestId, received, Optional.ofNullable(ctx.queryParam("model")).orElse(""));
  }

  private void complete(final Context ctx, final Dialect dialect) throws IOException, InterruptedException {
    final Optional<Tenant> tenant = tenants.findByKey(apiKey(ctx));
    if (tenant.isEmpty()) {
      HttpAnswers.fail(ctx, dialect, unauthenticated(), null);
      return;
    }
    final byte[] body = boundedBody(ctx.req().getInputStream());
    if (body == null) {
      HttpAnswers.fail(ctx, dialect, Failure.of(Failure.Kind.TOO_LARGE, "the request body is larger than "
          + maxBodyBytes + " bytes: shorten the prompt"), null);
      return;
    }
    final GatewayRequest request;
    try {
      request = dialect.parse(Json.parse(body));
    } catch (final BadRequestException e) {
      HttpAnswers.fail(ctx, dialect, Failure.badRequest(e), null);
      return;
    }
    final SortedSet<String> known = models.all();
    if (models.isReady() && !known.contains(request.model())) {
      HttpAnswers.fail(ctx, dialect, new Failure(Failure.Kind.NOT_FOUND,
          RoutingReasons.modelNotServed(request.model(), known), "model", null), null);
      return;
    }
    relay.serve(ctx, dialect, tenant.get().id(), request);
  }

  private void listModels(final Context ctx) {
    final boolean anthropic = ctx.header("anthropic-version") != null;
    if (tenants.findByKey(apiKey(ctx)).isEmpty()) {
      HttpAnswers.fail(ctx, anthropic ? messages : chat, unauthenticated(), null);
      return;
    }
    final ObjectNode list = Json.object();
    final ArrayNode data = list.putArray("data");
    for (final String model : models.served()) {
      final ObjectNode entry = data.addObject();
      entry.put("id", model);
      if (anthropic) {
        entry.put("type", "model");
        entry.put("display_name", model);
        entry.put("created_at", "1970-01-01T00:00:00Z");
      } else {
        entry.put("object", "model");
        entry.put("created", 0);
        entry.put("owned_by", "zerolayer");
      }
    }
    if (anthropic) {
      list.put("has_more", false);
      list.put("first_id", data.isEmpty() ? null : data.get(0).get("id").asText());
      list.put("last_id", data.isEmpty() ? null : data.get(data.size() - 1).get("id").asText());
    } else {
      list.put("object", "list");
    }
    ctx.contentType("application/json").result(Json.line(list));
  }

  /** The key of {@code Authorization: Bearer <key>} (OpenAI's SDKs) or {@code x-api-key} (Anthropic's). */
  private static String apiKey(final Context ctx) {
    final String authorization = ctx.header("Authorization");
    if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return authorization.substring(7).trim();
    }
    return ctx.header("x-api-key");
  }

  private static Failure unauthenticated() {
    return Failure.of(Failure.Kind.UNAUTHENTICATED, "the API key is missing or not valid: send a tenant's key as"
        + " 'Authorization: Bearer <key>' or 'x-api-key: <key>'");
  }

  /** The body, or null when it is larger than the limit (then read on up to the drain limit, and dropped). */
  private byte[] boundedBody(final InputStream in) throws IOException {
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    final byte[] buffer = new byte[8192];
    long total = 0;
    int read;
    while ((read = in.read(buffer)) != -1) {
      total += read;
      if (total <= maxBodyBytes) {
        body.write(buffer, 0, read);
      } else if (total > DRAIN_LIMIT_BYTES) {
        break;
      }
    }
    return total > maxBodyBytes ? null : body.toByteArray();
  }
}
