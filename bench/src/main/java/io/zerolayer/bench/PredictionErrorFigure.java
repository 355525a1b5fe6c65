package io.zerolayer.bench;

import io.zerolayer.fleet.load.RequestOutcome;
import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * How right the router's predictions were: the mean absolute percentage error of the time to the
 * first token and of the latency it predicted for each measured request served where it was
 * first sent (one attempt, completed), against what the client measured, and the mean signed
 * error beside each (below 0: predicted too low on average). The client's figures include the
 * layer's own hops, which no prediction of the engine's time covers.
 */
final class PredictionErrorFigure {

  private PredictionErrorFigure() {
  }

  static Figure of(final PolicyRun run) {
    final Map<String, RequestOutcome> requests = run.bySequence();
    final Map<String, Long> attempts = run.dispatches().stream()
        .collect(Collectors.groupingBy(Dispatch::sequenceId, Collectors.counting()));
    double ttftError = 0;
    double latencyError = 0;
    double ttftBias = 0;
    double latencyBias = 0;
    int count = 0;
    for (final Dispatch dispatch : run.dispatches()) {
      final RequestOutcome request = requests.get(dispatch.sequenceId());
      if (dispatch.epoch() != 1 || attempts.get(dispatch.sequenceId()) != 1 || request == null
          || request.status() != Status.COMPLETED || run.sentMs(request) < run.measureFromMs()
          || dispatch.predictedTtftMs() == null || dispatch.predictedLatencyMs() == null) {
        continue;
      }
      final Optional<Duration> ttft = request.timeToFirstToken();
      if (ttft.isEmpty() || ttft.get().isZero() || request.latency().isZero()) {
        continue;
      }
      final double ttftOff = error(dispatch, ttft.get(), Dispatch::predictedTtftMs);
      final double latencyOff = error(dispatch, request.latency(), Dispatch::predictedLatencyMs);
      ttftError += Math.abs(ttftOff);
      latencyError += Math.abs(latencyOff);
      ttftBias += ttftOff;
      latencyBias += latencyOff;
      count++;
    }
    if (count == 0) {
      return Figure.na("no completed request with a prediction");
    }
    // The value is the larger of the two, which the goal holds to its bound.
    return Figure.of(Math.max(ttftError, latencyError) / count, Figure.format(
        "TTFT %.1f %% (bias %+.1f %%) / latency %.1f %% (bias %+.1f %%) (%,d requests)", 100 * ttftError / count,
        100 * ttftBias / count, 100 * latencyError / count, 100 * latencyBias / count, count));
  }

  /** The prediction's error as a share of what was measured: below 0 when it was too low. */
  private static double error(final Dispatch dispatch, final Duration measured,
      final ToDoubleFunction<Dispatch> predicted) {
    final double actual = measured.toNanos() / 1e6;
    return (predicted.applyAsDouble(dispatch) - actual) / actual;
  }
}
