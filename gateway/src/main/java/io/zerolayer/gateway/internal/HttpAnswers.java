package io.zerolayer.gateway.internal;

import io.javalin.http.Context;

/** Status, headers and body of the answers that are not a stream. */
public final class HttpAnswers {

  public static final String REQUEST_ID = "x-request-id";
  public static final String ROUTING = "x-zerolayer-routing";
  public static final String INSTANCE = "x-zerolayer-instance";

  private HttpAnswers() {
  }

  /**
   * Answers with a failure in the dialect's format; a failure with a retry time says it in
   * {@code retry-after} (whole seconds, rounded up) and {@code retry-after-ms} (exact).
   *
   * @param requestId the request's id, or null when it never got one
   */
  public static void fail(final Context ctx, final Dialect dialect, final Failure failure, final String requestId) {
    if (requestId != null) {
      ctx.header(REQUEST_ID, requestId);
    }
    ctx.header(ROUTING, routing(failure.kind()));
    if (failure.retryAfterMs() != null) {
      final long ms = Math.max(0, failure.retryAfterMs());
      ctx.header("retry-after", Long.toString((ms + 999) / 1000));
      ctx.header("retry-after-ms", Long.toString(ms));
    }
    ctx.status(dialect.status(failure)).contentType("application/json").result(Json.line(dialect.error(failure)));
  }

  /** The headers of an answer that is served. */
  static void served(final Context ctx, final Answer answer) {
    ctx.header(REQUEST_ID, answer.requestId());
    ctx.header(ROUTING, answer.routingName());
    if (answer.instanceId() != null) {
      ctx.header(INSTANCE, answer.instanceId());
    }
  }

  private static String routing(final Failure.Kind kind) {
    return switch (kind) {
      case RATE_LIMITED, OVERLOADED -> "throttled";
      case TIMEOUT, INTERNAL -> "failed";
      case BAD_REQUEST, UNAUTHENTICATED, NOT_FOUND, TOO_LARGE -> "rejected";
    };
  }
}
