package io.zerolayer.deploy.bench;

import java.util.OptionalDouble;
import java.util.function.Function;

/** The rows of the results table, in order: what each shows and where its figure comes from. */
enum FigureRow {

  REQUESTS("requests measured: completed / errors / throttled", f -> new Figure(OptionalDouble.empty(),
      Figure.format("%,d: %,d / %,d / %,d", f.requests().measured(), f.requests().completed(),
          f.requests().errors(), f.requests().throttled()))),
  LATENCY_P50("latency P50, ms", f -> f.requests().latencyP50()),
  LATENCY_P90("latency P90, ms", f -> f.requests().latencyP90()),
  LATENCY_P99("latency P99, ms", f -> f.requests().latencyP99()),
  TTFT_P50("TTFT P50, ms", f -> f.requests().ttftP50()),
  TTFT_P90("TTFT P90, ms", f -> f.requests().ttftP90()),
  TTFT_P99("TTFT P99, ms", f -> f.requests().ttftP99()),
  ERROR_RATE("error rate (timed out, failed, rejected)", f -> f.requests().errorRate()),
  THROTTLED("throttled", f -> f.requests().throttledRate()),
  TOKEN_STD("token-interval std, ms (mean per request)", f -> f.requests().tokenIntervalStdMs()),
  TOKENS_PER_SECOND("output tokens/s", f -> f.requests().tokensPerSecond()),
  OOM_OFF("OOM: traffic off the instance after, ms", f -> f.oom().trafficOffMs()),
  OOM_FAILED("OOM: failed requests among those sent to it", f -> f.oom().failedRequests()),
  ZONE_MOVED("zone loss: traffic moved off the zone", PolicyFigures::zoneMoved),
  COLD_START("cold start: first request vs warm median", PolicyFigures::coldStart),
  CUTOVER_SUCCESS("cut-over: completed", f -> f.cutover().success()),
  CUTOVER_PAUSE_P50("cut-over pause P50, ms", f -> f.cutover().pauseP50Ms()),
  CUTOVER_PAUSE_P99("cut-over pause P99, ms", f -> f.cutover().pauseP99Ms()),
  CUTOVER_PAUSE_BY_CAUSE("cut-over pause P50 by cause, ms (cut-overs)", f -> f.cutover().pauseByCause());

  private final String label;
  private final Function<PolicyFigures, Figure> figure;

  FigureRow(final String label, final Function<PolicyFigures, Figure> figure) {
    this.label = label;
    this.figure = figure;
  }

  String label() {
    return label;
  }

  Figure of(final PolicyFigures figures) {
    return figure.apply(figures);
  }
}
