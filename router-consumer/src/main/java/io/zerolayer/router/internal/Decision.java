package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.RoutingOutcome;

/**
 * What the router decided for one request, before it becomes records.
 *
 * @param outcome the routing outcome
 * @param instanceId where it goes; null unless dispatched
 * @param reason why, for the audit trail and the client
 * @param predictedLatencyMs predicted latency on the chosen instance, or null; from the request's
 *     submission once {@link #plusLayerTime(double)} added the layer's time
 * @param retryAfterMs when a throttled client should retry, or null
 * @param preWarmInstance a cold instance to send {@code PRE_WARM} to, or null
 * @param expectsWarm whether the policy chose the instance as one that has loaded its weights, so
 *     that its worker hands the task back at once should its engine be loading after all (a
 *     restart the heatmap did not show yet)
 * @param predictedTtftMs predicted time to the first token on the chosen instance, or null; as the
 *     latency
 * @param queueEstimateMs the estimated wait in the instance's queue, before the instance's learned
 *     scale (what the heatmap sets the wait it will have against), or null
 */
public record Decision(RoutingOutcome outcome, String instanceId, String reason, Double predictedLatencyMs,
    Long retryAfterMs, String preWarmInstance, boolean expectsWarm, Double predictedTtftMs, Double queueEstimateMs) {

  /** A decision without a predicted time to the first token. */
  public Decision(final RoutingOutcome outcome, final String instanceId, final String reason,
      final Double predictedLatencyMs, final Long retryAfterMs, final String preWarmInstance,
      final boolean expectsWarm) {
    this(outcome, instanceId, reason, predictedLatencyMs, retryAfterMs, preWarmInstance, expectsWarm, null, null);
  }

  /** A decision that expects no warm instance. */
  public Decision(final RoutingOutcome outcome, final String instanceId, final String reason,
      final Double predictedLatencyMs, final Long retryAfterMs, final String preWarmInstance) {
    this(outcome, instanceId, reason, predictedLatencyMs, retryAfterMs, preWarmInstance, false);
  }

  /** A decision that pre-warms nothing. */
  public Decision(final RoutingOutcome outcome, final String instanceId, final String reason,
      final Double predictedLatencyMs, final Long retryAfterMs) {
    this(outcome, instanceId, reason, predictedLatencyMs, retryAfterMs, null);
  }

  /** Whether the request is dispatched to an instance. */
  public boolean dispatched() {
    return instanceId != null;
  }

  /** This decision, with the instance chosen as one that has loaded its weights. */
  public Decision expectingWarm() {
    return new Decision(outcome, instanceId, reason, predictedLatencyMs, retryAfterMs, preWarmInstance, true,
        predictedTtftMs, queueEstimateMs);
  }

  /** This decision, with the time to the first token predicted on its instance, and its unscaled queue estimate. */
  public Decision predictingTtft(final double ttftMs, final double queueEstimateMs) {
    return new Decision(outcome, instanceId, reason, predictedLatencyMs, retryAfterMs, preWarmInstance, expectsWarm,
        ttftMs, queueEstimateMs);
  }

  /**
   * This decision, with the layer's own time added to its predictions: what the request waited
   * before it, and what its dispatch will take to reach the worker.
   */
  public Decision plusLayerTime(final double layerMs) {
    return new Decision(outcome, instanceId, reason, predictedLatencyMs == null ? null : predictedLatencyMs + layerMs,
        retryAfterMs, preWarmInstance, expectsWarm, predictedTtftMs == null ? null : predictedTtftMs + layerMs,
        queueEstimateMs);
  }

  /** Whether a cold instance is to be pre-warmed. */
  public boolean preWarm() {
    return preWarmInstance != null;
  }
}
