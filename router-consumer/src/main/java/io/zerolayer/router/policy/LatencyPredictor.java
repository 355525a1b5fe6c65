package io.zerolayer.router.policy;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.LatencyModel;

/** Predicts a request's latency on an instance from the instance's heatmap row. */
public final class LatencyPredictor {

  /** The request shape behind the queue-wait estimate: a typical request's service time. */
  private static final int TYPICAL_INPUT_TOKENS = 256;
  private static final int TYPICAL_OUTPUT_TOKENS = 128;

  private LatencyPredictor() {
  }

  /** Service time of the request itself, from the instance's latency model. */
  public static double serviceMs(final InstanceScore row, final RequestProfile request) {
    final LatencyModel model = row.getLatencyModel();
    return Math.max(0.0, model.getLatencyInterceptMs()
        + model.getLatencyPerInputTokenMs() * request.inputTokens()
        + model.getLatencyPerOutputTokenMs() * request.maxOutputTokens());
  }

  /**
   * Time the request waits before it starts: the queue ahead of it, drained at the rate the
   * running batch completes typical requests.
   */
  public static double queueWaitMs(final InstanceScore row) {
    if (row.getQueueLength() <= 0) {
      return 0.0;
    }
    final LatencyModel model = row.getLatencyModel();
    final double typicalMs = model.getLatencyInterceptMs()
        + model.getLatencyPerInputTokenMs() * TYPICAL_INPUT_TOKENS
        + model.getLatencyPerOutputTokenMs() * TYPICAL_OUTPUT_TOKENS;
    return row.getQueueLength() * typicalMs / Math.max(1, row.getRunningRequests());
  }

  /** Queue wait plus service time. */
  public static double latencyMs(final InstanceScore row, final RequestProfile request) {
    return queueWaitMs(row) + serviceMs(row, request);
  }
}
