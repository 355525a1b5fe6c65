package io.zerolayer.router.policy;

/**
 * One instance a policy would send the request to, with what it expects.
 *
 * @param instanceId the instance
 * @param predictedLatencyMs predicted end-to-end latency of the request on it
 * @param cost what the policy ranked by (lower is better)
 */
public record Candidate(String instanceId, double predictedLatencyMs, double cost) {
}
