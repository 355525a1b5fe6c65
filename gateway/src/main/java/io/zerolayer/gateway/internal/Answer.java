package io.zerolayer.gateway.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.RoutingOutcome;
import java.util.Locale;

/**
 * What a dialect needs to render the answer to one request: who it is, how it was routed and,
 * once it ended, why and what it used.
 *
 * @param requestId the request's id (its sequence id), sent as {@code x-request-id}
 * @param model the model asked for
 * @param createdSeconds when the request came in, in seconds since the epoch
 * @param routing how its first attempt was routed
 * @param instanceId the instance that served it first
 * @param inputTokens the prompt's tokens
 */
public record Answer(String requestId, String model, long createdSeconds, RoutingOutcome routing, String instanceId,
    int inputTokens) {

  public Answer {
    requireNonNull(requestId, "requestId");
    requireNonNull(model, "model");
  }

  /** The routing as the {@code x-zerolayer-routing} header says it. */
  public String routingName() {
    return routing == null ? "direct" : routing.name().toLowerCase(Locale.ROOT);
  }

  /**
   * How the answer ended.
   *
   * @param finishReason the engine's ({@code stop}, {@code length}, ...)
   * @param outputTokens tokens generated
   * @param finalRouting the routing the stream's last chunk reports ({@code CUTOVER} after a move)
   * @param finalInstance the instance that finished it
   * @param epoch the attempt that finished it (1 for the first)
   */
  public record End(String finishReason, int inputTokens, int outputTokens, RoutingOutcome finalRouting,
      String finalInstance, int epoch) {

    /** Whether the stream moved to another instance on its way. */
    public boolean cutOver() {
      return finalRouting == RoutingOutcome.CUTOVER || epoch > 1;
    }
  }
}
