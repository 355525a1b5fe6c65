package io.zerolayer.bench;

import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * The rows of the results table, in order: what each shows and where its figure comes from.
 * The client's rows come from a set of requests alone, so they also pool over several runs.
 */
enum FigureRow {

  REQUESTS("requests measured: completed / errors / throttled", client(r -> new Figure(OptionalDouble.empty(),
      Figure.format("%,d: %,d / %,d / %,d", r.measured(), r.completed(), r.errors(), r.throttled())))),
  LATENCY_P50("latency P50, ms", client(RequestFigures::latencyP50)),
  LATENCY_P90("latency P90, ms", client(RequestFigures::latencyP90)),
  LATENCY_P99("latency P99, ms", client(RequestFigures::latencyP99)),
  TTFT_P50("TTFT P50, ms", client(RequestFigures::ttftP50)),
  TTFT_P90("TTFT P90, ms", client(RequestFigures::ttftP90)),
  TTFT_P99("TTFT P99, ms", client(RequestFigures::ttftP99)),
  TPOT_P50("TPOT P50, ms (time per output token after the first)", client(RequestFigures::tpotP50)),
  TPOT_P99("TPOT P99, ms", client(RequestFigures::tpotP99)),
  GOODPUT(Figure.format("goodput: completed with TTFT <= %,d ms and TPOT <= %d ms", RequestFigures.GOODPUT_TTFT_MS,
      RequestFigures.GOODPUT_TPOT_MS), client(RequestFigures::goodput)),
  ERROR_RATE("error rate (timed out, failed, rejected)", client(RequestFigures::errorRate)),
  THROTTLED("throttled", client(RequestFigures::throttledRate)),
  TOKEN_STD("token-interval std, ms (mean per request)", client(RequestFigures::tokenIntervalStdMs)),
  TOKENS_PER_SECOND("output tokens/s", client(RequestFigures::tokensPerSecond)),
  OOM_OFF("OOM: traffic off the instance after, ms", run(f -> f.oom().trafficOffMs())),
  OOM_FAILED("OOM: failed requests among those sent to it", run(f -> f.oom().failedRequests())),
  ZONE_MOVED("zone loss: traffic moved off the zone while another zone had room", run(PolicyFigures::zoneMoved)),
  COLD_START("cold start: first request vs warm median", run(PolicyFigures::coldStart)),
  PREDICTION_ERROR("prediction error (mean absolute %) of the router's predictions", run(
      PolicyFigures::predictionError)),
  CUTOVER_SUCCESS("cut-over: completed", run(f -> f.cutover().success())),
  CUTOVER_PAUSE_P50("cut-over pause P50, ms", run(f -> f.cutover().pauseP50Ms())),
  CUTOVER_PAUSE_P99("cut-over pause P99, ms", run(f -> f.cutover().pauseP99Ms())),
  CUTOVER_PAUSE_BY_CAUSE("cut-over pause P50 by cause, ms (cut-overs)", run(f -> f.cutover().pauseByCause()));

  /** Where a row's figure comes from: the client's view of the requests, or the whole run. */
  private record Source(Function<RequestFigures, Figure> client, Function<PolicyFigures, Figure> run) {
  }

  private final String label;
  private final Source source;

  FigureRow(final String label, final Source source) {
    this.label = label;
    this.source = source;
  }

  private static Source client(final Function<RequestFigures, Figure> figure) {
    return new Source(figure, f -> figure.apply(f.requests()));
  }

  private static Source run(final Function<PolicyFigures, Figure> figure) {
    return new Source(null, figure);
  }

  String label() {
    return label;
  }

  Figure of(final PolicyFigures figures) {
    return source.run().apply(figures);
  }

  /** Whether the figure comes from the requests alone, so that {@link #of(RequestFigures)} gives it. */
  boolean clientView() {
    return source.client() != null;
  }

  /** The figure of a set of requests; only for a row of the {@link #clientView() client's view}. */
  Figure of(final RequestFigures requests) {
    if (!clientView()) {
      throw new IllegalStateException(this + " needs a whole run's figures, not only its requests'");
    }
    return source.client().apply(requests);
  }
}
