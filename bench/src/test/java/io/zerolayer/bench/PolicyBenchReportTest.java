package io.zerolayer.bench;

import static io.zerolayer.bench.FiguresFixture.figures;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyBenchReportTest {

  @Test
  void shouldPutThePoliciesSideBySideWithTheGoalColumnLast() {
    final String markdown = new PolicyBenchReport("zerolayer bench --smoke", List.of("fleet: 3 instances"))
        .render(List.of(figures("zerolayer", 900, 0, 100, 0, 1, 1), figures("round-robin", 4_000, 0.01, 0, 2, 0, 3)));

    final List<String> lines = markdown.lines().toList();
    assertThat(lines.get(0)).isEqualTo("Routing policies side by side on the local broker: `zerolayer bench --smoke`");
    assertThat(lines).contains("- fleet: 3 instances",
        "| figure | zerolayer | round-robin | goal (zerolayer) |",
        "|---|---:|---:|---|",
        "| latency P99, ms | 900 | 4,000 | <= 0.25x round-robin (<= 1,000 ms) met; lowest of all: met |",
        "| TTFT P50, ms | n/a: not measured | n/a: not measured |  |");
    assertThat(lines.stream().filter(l -> l.startsWith("| ") && !l.startsWith("| figure"))).hasSize(
        FigureRow.values().length);
    assertThat(markdown).contains("[latency distribution](latency-distribution.png)", "(p99-over-time.png)",
        "(outcomes.csv)");
  }

  @Test
  void shouldEscapeAPipeInACell() {
    final PolicyFigures odd = figures("zerolayer", 1, 0, 0, 0, 1, 1);
    final PolicyFigures piped = new PolicyFigures("zerolayer", odd.requests(), odd.oom(), Figure.na("a | b"),
        odd.coldStart(), odd.cutover(), odd.predictionError());

    assertThat(new PolicyBenchReport("c", List.of()).render(List.of(piped))).contains("n/a: a \\| b");
  }
}
