package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundsReportTest {

  private static final String CONTROL = "round-robin/no-cutover";

  @Test
  void shouldPoolEachPolicysRequestsOverTheRoundsAndJudgeTheP99GoalOnThePooledAndEachRoundsP99() {
    // Given p2c beats zerolayer in round 1, then runs its second slot on a slowed host.
    final List<List<PolicyRun>> rounds = List.of(
        List.of(run("zerolayer", 1_000), run("p2c", 900), run(CONTROL, 8_000)),
        List.of(run("p2c", 3_000), run(CONTROL, 8_000), run("zerolayer", 1_000)));

    // When
    final String markdown = new RoundsReport("zerolayer bench --rounds 2", List.of("fleet: 6 instances"))
        .render(List.of("zerolayer", "p2c", CONTROL), rounds);

    // Then
    final List<String> lines = markdown.lines().toList();
    assertThat(lines.get(0)).isEqualTo(
        "Routing policies side by side on the local broker, in 2 rounds: `zerolayer bench --rounds 2`");
    assertThat(lines).contains("- fleet: 6 instances",
        "| figure | zerolayer | p2c | round-robin/no-cutover | goal (zerolayer) |",
        "| slot in rounds 1 / 2 | 1 / 3 | 2 / 1 | 3 / 2 |  |",
        "| requests measured: completed / errors / throttled, all rounds | 200: 200 / 0 / 0 | 200: 200 / 0 / 0 "
            + "| 200: 200 / 0 / 0 |  |",
        "| latency P99, ms, all rounds | 1,000 | 3,000 | 8,000 | <= 0.25x round-robin/no-cutover (<= 2,000 ms) met; "
            + "lowest of all: met |",
        "| latency P99, ms, round 1 | 1,000 | 900 | 8,000 | <= 0.25x round-robin/no-cutover (<= 2,000 ms) met; "
            + "lowest of all: not met (p2c 900 ms) |",
        "| latency P99, ms, round 2 | 1,000 | 3,000 | 8,000 | <= 0.25x round-robin/no-cutover (<= 2,000 ms) met; "
            + "lowest of all: met |",
        "| goal (zerolayer) | round 1 | round 2 |",
        "| latency P99, ms | <= 0.25x round-robin/no-cutover (<= 2,000 ms) met; lowest of all: not met (p2c 900 ms) "
            + "| <= 0.25x round-robin/no-cutover (<= 2,000 ms) met; lowest of all: met |");
    assertThat(markdown).contains("[round 1](round-1/results.md), [round 2](round-2/results.md)");
  }

  @Test
  void shouldPoolTheMeasuredRequestsOnlyOverEveryRunsMeasuredWindow() {
    final PolicyRun first = new RunFixture().measuringFrom(1_000).completed("a", 0, 500, "gpu-0")
        .completed("b", 1_000, 2_000, "gpu-0").run("zerolayer");
    final PolicyRun second = new RunFixture().measuringFrom(1_000).completed("c", 2_000, 1_000, "gpu-1")
        .run("zerolayer");

    final RequestFigures pooled = RoundsReport.pool(List.of(first, second));

    assertThat(pooled.measured()).isEqualTo(2);
    // 24 tokens over the windows 1,000 -> 3,000 and 1,000 -> 3,000 ms.
    assertThat(pooled.tokensPerSecond().value()).hasValue(6.0);
  }

  /** 100 completed requests of {@code latencyMs} each, all measured. */
  private static PolicyRun run(final String policy, final long latencyMs) {
    final RunFixture fixture = new RunFixture();
    for (int i = 0; i < 100; i++) {
      fixture.completed(policy + "-" + i, i * 10L, latencyMs, "gpu-" + i % 3);
    }
    return fixture.run(policy);
  }
}
