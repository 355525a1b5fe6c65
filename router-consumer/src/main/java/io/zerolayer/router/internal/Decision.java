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
 */
public record Decision(
    RoutingOutcome outcome, String instanceId, String reason, Double predictedLatencyMs, Long retryAfterMs) {

  /** Whether the request is dispatched to an instance. */
  public boolean dispatched() {
    return instanceId != null;
  }

  /** Whether the instance must be pre-warmed first. */
  public boolean preWarm() {
    return outcome == RoutingOutcome.PREWARMED;
  }
}
