package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

/**
 * Every figure of one policy's run.
 *
 * @param policy the routing policy's name
 * @param requests the client's view: latency, TTFT, errors, token cadence, throughput
 * @param oom the OOM fault: traffic off the instance, and failed requests
 * @param zoneMoved the zone-loss fault: share of the zone's traffic moved off it
 * @param coldStart the cold start: first request's latency over the warm median
 * @param cutover the cut-overs: completed share, and the client's pause
 * @param predictionError how far the router's predictions were from what the client measured
 */
record PolicyFigures(String policy, RequestFigures requests, OomFigures oom, Figure zoneMoved,
    Figure coldStart, CutoverFigures cutover, Figure predictionError) {

  PolicyFigures {
    requireNonNull(policy, "policy");
    requireNonNull(requests, "requests");
    requireNonNull(oom, "oom");
    requireNonNull(zoneMoved, "zoneMoved");
    requireNonNull(coldStart, "coldStart");
    requireNonNull(cutover, "cutover");
    requireNonNull(predictionError, "predictionError");
  }

  /** Computes the figures of a run. */
  static PolicyFigures of(final PolicyRun run) {
    return new PolicyFigures(run.policy(), RequestFigures.of(run.measured(), run.measuredWindowMs()),
        OomFigures.of(run), ZoneLossFigure.of(run), ColdStartFigure.of(run), CutoverFigures.of(run),
        PredictionErrorFigure.of(run));
  }
}
