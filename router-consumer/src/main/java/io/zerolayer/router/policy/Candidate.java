package io.zerolayer.router.policy;

/**
 * One instance a policy would send the request to, with what it expects.
 *
 * @param instanceId the instance
 * @param predictedLatencyMs predicted end-to-end latency of the request on it
 * @param cost what the policy ranked by (lower is better)
 * @param queueWaitMs the wait in the instance's queue the policy predicted on the way (the one
 *     {@link LatencyPredictor#queueWaitMs(Heatmap, String)} gives), or NaN when it did not
 *     predict one apart
 */
public record Candidate(String instanceId, double predictedLatencyMs, double cost, double queueWaitMs) {

  /** A candidate whose policy did not predict its queue wait apart. */
  public Candidate(final String instanceId, final double predictedLatencyMs, final double cost) {
    this(instanceId, predictedLatencyMs, cost, Double.NaN);
  }

  /** The predicted queue wait, from the policy's own ranking when it made one, else from the heatmap. */
  public double queueWaitMs(final Heatmap heatmap) {
    return Double.isNaN(queueWaitMs) ? LatencyPredictor.queueWaitMs(heatmap, instanceId) : queueWaitMs;
  }
}
