package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

/**
 * Why a request gets no answer, in the terms both APIs share; each dialect turns it into its own
 * status code and error body.
 *
 * @param kind what went wrong
 * @param message what happened and what to change, for the person who sent the request
 * @param param the offending parameter, or null
 * @param retryAfterMs when to try again, for the kinds that say so, else null
 */
public record Failure(Kind kind, String message, String param, Long retryAfterMs) {

  /** What went wrong, with the status code both APIs use for it (overload differs, see the dialects). */
  public enum Kind {
    BAD_REQUEST(400), UNAUTHENTICATED(401), NOT_FOUND(404), TOO_LARGE(413), RATE_LIMITED(429), OVERLOADED(503),
    TIMEOUT(504), INTERNAL(500);

    private final int status;

    Kind(final int status) {
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  public Failure {
    requireNonNull(kind, "kind");
    requireNonNull(message, "message");
  }

  public static Failure of(final Kind kind, final String message) {
    return new Failure(kind, message, null, null);
  }

  public static Failure badRequest(final BadRequestException cause) {
    return new Failure(Kind.BAD_REQUEST, cause.getMessage(), cause.param(), null);
  }
}
