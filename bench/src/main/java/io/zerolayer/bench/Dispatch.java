package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.RoutingOutcome;

/**
 * One attempt of a sequence sent to an instance, as the router's decision records it.
 *
 * @param sequenceId the sequence
 * @param epoch 1 for the first attempt, +1 for each cut-over
 * @param instanceId where it was sent
 * @param outcome how the router chose it ({@code DIRECT}, {@code FALLBACK}, {@code PREWARMED}, {@code CUTOVER})
 * @param atMs when the router decided, epoch milliseconds
 * @param reason why the router chose it, as the decision says
 * @param predictedLatencyMs the latency the router predicted there, or null
 * @param predictedTtftMs the time to the first token it predicted there, or null
 */
record Dispatch(String sequenceId, int epoch, String instanceId, RoutingOutcome outcome, long atMs, String reason,
    Double predictedLatencyMs, Double predictedTtftMs) {

  Dispatch {
    requireNonNull(sequenceId, "sequenceId");
    requireNonNull(instanceId, "instanceId");
    requireNonNull(outcome, "outcome");
    requireNonNull(reason, "reason");
  }

  /** A dispatch without predictions. */
  Dispatch(final String sequenceId, final int epoch, final String instanceId, final RoutingOutcome outcome,
      final long atMs, final String reason) {
    this(sequenceId, epoch, instanceId, outcome, atMs, reason, null, null);
  }

  /** Whether this attempt resumes a stalled sequence on a backup. */
  boolean isCutover() {
    return outcome == RoutingOutcome.CUTOVER;
  }
}
