package io.zerolayer.bench;

/** Policy figures with chosen values for the goal and report tests; figures not named are n/a. */
final class FiguresFixture {

  private FiguresFixture() {
  }

  /**
   * @param p99Ms latency P99
   * @param errorRate error share
   * @param oomOffMs traffic off the OOM instance after
   * @param oomFailed failed requests sent to it
   * @param zoneMoved share moved off the lossy zone
   * @param coldRatio cold first request over the warm median
   */
  static PolicyFigures figures(final String policy, final double p99Ms, final double errorRate, final double oomOffMs,
      final int oomFailed, final double zoneMoved, final double coldRatio) {
    final Figure na = Figure.na("not measured");
    final RequestFigures requests = new RequestFigures(100, 99, 1, 0, Figure.ms(p99Ms / 4), Figure.ms(p99Ms / 2),
        Figure.ms(p99Ms), na, na, na, Figure.percent(errorRate, 2), Figure.percent(0, 2), na, na, na, na, na);
    return new PolicyFigures(policy, requests,
        new OomFigures(Figure.ms(oomOffMs), Figure.of(oomFailed, oomFailed + " of 3 sent there")),
        Figure.percent(zoneMoved, 1), Figure.of(coldRatio, coldRatio + "x"),
        new CutoverFigures(na, na, na, na), na);
  }
}
