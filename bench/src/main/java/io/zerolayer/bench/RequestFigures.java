package io.zerolayer.bench;

import io.zerolayer.fleet.load.RequestOutcome.Status;
import io.zerolayer.fleet.load.RequestOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The client's view of one policy's measured requests. Latency and TTFT percentiles are over
 * completed requests; errors (timed out, failed, rejected) and throttled requests are counted
 * apart, as shares of every measured request.
 *
 * @param measured requests sent after the warm-up
 * @param completed of those, streams that finished normally
 * @param errors of those, timed out, failed or rejected
 * @param throttled of those, refused with a retry-after
 * @param tokenIntervalStdMs mean over completed requests of the standard deviation of their token intervals
 * @param tokensPerSecond output tokens of completed requests per second of the measured window
 */
record RequestFigures(int measured, int completed, int errors, int throttled, Figure latencyP50,
    Figure latencyP90, Figure latencyP99, Figure ttftP50, Figure ttftP90, Figure ttftP99, Figure errorRate,
    Figure throttledRate, Figure tokenIntervalStdMs, Figure tokensPerSecond) {

  /**
   * @param measured the requests sent after the warm-up
   * @param windowMs how long the measured window lasted
   */
  static RequestFigures of(final List<RequestOutcome> measured, final long windowMs) {
    final List<RequestOutcome> completed = measured.stream().filter(o -> o.status() == Status.COMPLETED).toList();
    final List<Long> latencies = completed.stream().map(o -> o.latency().toMillis()).toList();
    final List<Long> ttfts = completed.stream().map(RequestOutcome::timeToFirstToken).flatMap(Optional::stream)
        .map(Duration::toMillis).toList();
    final int errors = (int) measured.stream().filter(RequestOutcome::isError).count();
    final int throttled = (int) measured.stream().filter(RequestOutcome::isThrottled).count();
    final OptionalDouble std = completed.stream().map(RequestOutcome::tokenIntervalStddevMs)
        .filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble).average();
    final long tokens = completed.stream().mapToLong(RequestOutcome::outputTokens).sum();
    return new RequestFigures(measured.size(), completed.size(), errors, throttled,
        percentile(latencies, 50), percentile(latencies, 90), percentile(latencies, 99),
        percentile(ttfts, 50), percentile(ttfts, 90), percentile(ttfts, 99),
        share(errors, measured.size()), share(throttled, measured.size()),
        std.isPresent() ? Figure.of(std.getAsDouble(), Figure.format("%.1f", std.getAsDouble()))
            : Figure.na("no request with 3 or more tokens"),
        windowMs > 0 ? rate(tokens, windowMs) : Figure.na("empty window"));
  }

  private static Figure percentile(final List<Long> values, final double p) {
    return values.isEmpty() ? Figure.na("no completed request") : Figure.ms(new Percentiles(values).at(p));
  }

  private static Figure share(final int count, final int of) {
    return of == 0 ? Figure.na("no measured request")
        : Figure.of((double) count / of, Figure.format("%.2f %% (%d)", 100.0 * count / of, count));
  }

  private static Figure rate(final long tokens, final long windowMs) {
    final double perSecond = tokens * 1000.0 / windowMs;
    return Figure.of(perSecond, Figure.format("%,.0f", perSecond));
  }
}
