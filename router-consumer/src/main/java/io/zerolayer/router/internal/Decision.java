package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.RoutingOutcome;

/**
 * What the router decided for one request, before it becomes records.
 *
 * @param outcome the routing outcome
 * @param instanceId where it goes; null unless dispatched
 * @param reason why, for the audit trail and the client
 * @param predictedLatencyMs predicted latency on the chosen instance, or null
 * @param retryAfterMs when a throttled client should retry, or null
 * @param preWarmInstance a cold instance to send {@code PRE_WARM} to, or null
 */
public record Decision(RoutingOutcome outcome, String instanceId, String reason, Double predictedLatencyMs,
    Long retryAfterMs, String preWarmInstance) {

  /** A decision that pre-warms nothing. */
  public Decision(final RoutingOutcome outcome, final String instanceId, final String reason,
      final Double predictedLatencyMs, final Long retryAfterMs) {
    this(outcome, instanceId, reason, predictedLatencyMs, retryAfterMs, null);
  }

  /** Whether the request is dispatched to an instance. */
  public boolean dispatched() {
    return instanceId != null;
  }

  /** Whether a cold instance is to be pre-warmed. */
  public boolean preWarm() {
    return preWarmInstance != null;
  }
}
