package io.zerolayer.bench;

import io.zerolayer.fleet.load.RequestOutcome.Status;
import io.zerolayer.fleet.load.RequestOutcome;
import io.zerolayer.router.policy.ServiceObjective;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The client's view of one policy's measured requests. Latency, TTFT and TPOT percentiles are
 * over completed requests; errors (timed out, failed, rejected) and throttled requests are counted
 * apart, as shares of every measured request. Goodput is the share of every measured request
 * that completed within the service objective: a first token within {@link #GOODPUT_TTFT_MS} and
 * a time per output token (after the first) within {@link #GOODPUT_TPOT_MS}.
 *
 * @param measured requests sent after the warm-up
 * @param completed of those, streams that finished normally
 * @param errors of those, timed out, failed or rejected
 * @param throttled of those, refused with a retry-after
 * @param tokenIntervalStdMs mean over completed requests of the standard deviation of their token intervals
 * @param tokensPerSecond output tokens of completed requests per second of the measured window
 * @param tpotP50 time per output token after the first, (latency - TTFT) / (tokens - 1), of
 *     completed requests with two tokens or more
 * @param tpotP99 the same at P99
 * @param goodput the share of measured requests completed within the objective; one of a single
 *     token has no TPOT and counts by its TTFT alone
 */
record RequestFigures(int measured, int completed, int errors, int throttled, Figure latencyP50,
    Figure latencyP90, Figure latencyP99, Figure ttftP50, Figure ttftP90, Figure ttftP99, Figure errorRate,
    Figure throttledRate, Figure tokenIntervalStdMs, Figure tokensPerSecond, Figure tpotP50, Figure tpotP99,
    Figure goodput) {

  /**
   * The service objective behind goodput, the one Zerolayer's routers rank against by default: the
   * first token within this many ms, ...
   */
  static final long GOODPUT_TTFT_MS = (long) ServiceObjective.DEFAULT.ttftMs();
  /** ... and each later token within this many ms on average. */
  static final long GOODPUT_TPOT_MS = (long) ServiceObjective.DEFAULT.tpotMs();

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
    final List<Long> tpotMicros = completed.stream().map(RequestFigures::tpotMicros).flatMap(Optional::stream)
        .toList();
    final int good = (int) completed.stream().filter(RequestFigures::withinObjective).count();
    return new RequestFigures(measured.size(), completed.size(), errors, throttled,
        percentile(latencies, 50), percentile(latencies, 90), percentile(latencies, 99),
        percentile(ttfts, 50), percentile(ttfts, 90), percentile(ttfts, 99),
        share(errors, measured.size()), share(throttled, measured.size()),
        std.isPresent() ? Figure.of(std.getAsDouble(), Figure.format("%.1f", std.getAsDouble()))
            : Figure.na("no request with 3 or more tokens"),
        windowMs > 0 ? rate(tokens, windowMs) : Figure.na("empty window"),
        tpot(tpotMicros, 50), tpot(tpotMicros, 99), share(good, measured.size()));
  }

  /** Time per output token after the first, in µs; empty for fewer than two tokens. */
  private static Optional<Long> tpotMicros(final RequestOutcome outcome) {
    final Optional<Duration> ttft = outcome.timeToFirstToken();
    if (ttft.isEmpty() || outcome.outputTokens() < 2) {
      return Optional.empty();
    }
    return Optional.of(outcome.latency().minus(ttft.get()).toNanos() / 1_000 / (outcome.outputTokens() - 1));
  }

  private static boolean withinObjective(final RequestOutcome outcome) {
    final Optional<Duration> ttft = outcome.timeToFirstToken();
    return ttft.isPresent() && ttft.get().compareTo(Duration.ofMillis(GOODPUT_TTFT_MS)) <= 0
        && tpotMicros(outcome).map(micros -> micros <= GOODPUT_TPOT_MS * 1_000).orElse(true);
  }

  private static Figure tpot(final List<Long> micros, final double p) {
    if (micros.isEmpty()) {
      return Figure.na("no completed request of two tokens or more");
    }
    final double ms = new Percentiles(micros).at(p) / 1_000.0;
    return Figure.of(ms, Figure.format("%.1f", ms));
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
