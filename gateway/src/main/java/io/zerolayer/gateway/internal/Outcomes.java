package io.zerolayer.gateway.internal;

import io.zerolayer.contract.avro.ResponseChunk;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.routing.RoutingReasons;
import java.time.Duration;
import java.util.Optional;

/** What a stream's last chunk, or its silence, means for the HTTP client. */
final class Outcomes {

  private Outcomes() {
  }

  /** The failure a last chunk reports, or empty when the request was served. */
  static Optional<Failure> failure(final ResponseChunk last) {
    final RoutingOutcome outcome = last.getOutcome();
    final String reason = last.getReason() == null ? "no reason given" : last.getReason();
    if (outcome == RoutingOutcome.REJECTED) {
      final Failure.Kind kind = RoutingReasons.isModelNotServed(reason) ? Failure.Kind.NOT_FOUND
          : Failure.Kind.BAD_REQUEST;
      return Optional.of(new Failure(kind, reason, null, null));
    }
    if (outcome == RoutingOutcome.THROTTLED) {
      final Failure.Kind kind = RoutingReasons.isTenantOverLimit(reason) ? Failure.Kind.RATE_LIMITED
          : Failure.Kind.OVERLOADED;
      return Optional.of(new Failure(kind, reason, null, last.getRetryAfterMs()));
    }
    if (outcome == RoutingOutcome.UNKNOWN && last.getEpoch() == 0) {
      return Optional.of(new Failure(Failure.Kind.INTERNAL, "the request was not served, with an outcome this"
          + " gateway does not know (a newer router's; upgrade the gateway): " + reason, null, null));
    }
    if ("error".equals(last.getFinishReason())) {
      return Optional.of(new Failure(Failure.Kind.INTERNAL, "the generation failed: " + reason, null, null));
    }
    return Optional.empty();
  }

  /**
   * How a served answer ended.
   *
   * @param tokens the tokens the answer has in all
   */
  static Answer.End end(final ResponseChunk last, final int tokens) {
    final int output = last.getOutputTokens() > 0 ? last.getOutputTokens() : tokens;
    return new Answer.End(last.getFinishReason(), last.getInputTokens(), output, last.getOutcome(),
        last.getInstanceId(), last.getEpoch());
  }

  /** Why a stream gave nothing more: nothing within {@code waited}, or the error that broke it. */
  static Failure broken(final ChunkQueue.Item item, final Duration waited) {
    if (item instanceof ChunkQueue.Broken broken) {
      return Failure.of(Failure.Kind.INTERNAL, "the response stream failed: " + broken.cause().getMessage());
    }
    return Failure.of(Failure.Kind.TIMEOUT, "no token and no outcome within the gateway's timeout ("
        + waited.toMillis() + " ms)");
  }
}
