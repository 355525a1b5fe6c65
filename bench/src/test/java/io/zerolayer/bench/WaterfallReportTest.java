package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WaterfallReportTest {

  /** Sent at 1000; engine took the task at 1030 and emitted at 1090 (TTFT 60); client read at 1110. */
  private static HopTimes hops(final long offset, final long... chunkDelays) {
    final List<HopTimes.ChunkDelay> later = IntStream.range(0, chunkDelays.length)
        .mapToObj(i -> new HopTimes.ChunkDelay(4 * (i + 1), chunkDelays[i])).toList();
    return new HopTimes(1000, 1002, 1003, 1010 + offset, 1030 + offset, 1090 + offset, 1091 + offset,
        1110 + offset, later);
  }

  @Test
  void shouldTakeTheEnginesOwnTimeToFirstTokenOutOfTheAddedTime() {
    final HopTimes one = hops(0, 7, 9);

    assertThat(one.engineTtftMs()).isEqualTo(60);
    assertThat(one.clientTtftMs()).isEqualTo(110);
    assertThat(one.addedTtftMs()).isEqualTo(50);
  }

  @Test
  void shouldPrintEachPhaseWithTheAddedTimesAndTheFloorBesideThem() {
    final WaterfallBenchmark.Answers answers = new WaterfallBenchmark.Answers(5, 1, 192);
    final WaterfallBenchmark.Phase phase = new WaterfallBenchmark.Phase("20 requests/s", false,
        List.of(hops(0, 7, 9), hops(20, 3)), 1, answers, List.of(1L, 2L, 40L), 120.0, answers.meanTokens(),
        new RouterTransactions.Totals(40, 50, 0.2, 0.6));

    final String table = new WaterfallReport("zerolayer bench-latency").render(List.of(phase));

    assertThat(table).contains("## 20 requests/s (2 measured, 1 without every hop timed; 1 of the phase's 5 requests"
        + " without a complete answer within 120 s; 48 tokens a complete answer)");
    // The second request's dispatch came 20 ms later, and the engine's own time is the same: 70 ms added.
    assertThat(table)
        .contains("| **added time to first token** (client TTFT - engine TTFT) | 50 | 70 | 70 | 70 |");
    assertThat(table)
        .contains("| **added inter-chunk delay** (engine emit -> client read, later chunks) | 7 | 9 | 9 | 9 |");
    assertThat(table).contains("| floor: one plain Kafka hop | 2 | 40 | 40 | 40 |");
    assertThat(table).contains("120 bytes per generated token");
    assertThat(table).contains("Router while measured: 40 transactions of 1.3 records on average; each spent 5.0 ms"
        + " routing its polls, then 15.0 ms committing (its last records, offsets, the commit).");
  }

  @Test
  void shouldAddEveryRoutersSeriesOfAMeter() {
    final String text = "# HELP x\nzerolayer_router_transaction_commit_seconds_count{router=\"a\"} 3.0\n"
        + "zerolayer_router_transaction_commit_seconds_count{router=\"b\"} 4.0\n"
        + "zerolayer_router_transaction_commit_seconds_sum 1.5\n";

    assertThat(RouterTransactions.value(text, "zerolayer_router_transaction_commit_seconds_count")).isEqualTo(7.0);
    assertThat(RouterTransactions.value(text, "zerolayer_router_transaction_commit_seconds_sum")).isEqualTo(1.5);
  }

  @Test
  void shouldCompareALongAnswersChunksNearItsFirstAndItsLastToken() {
    final List<HopTimes.ChunkDelay> later = List.of(new HopTimes.ChunkDelay(4, 5),
        new HopTimes.ChunkDelay(1000, 50), new HopTimes.ChunkDelay(2000, 30));
    final HopTimes answer = new HopTimes(0, 1, 2, 3, 4, 60, 61, 70, later);
    final WaterfallBenchmark.Phase phase = new WaterfallBenchmark.Phase("1 long answers", true, List.of(answer), 0,
        new WaterfallBenchmark.Answers(1, 0, 2000), List.of(1L), 100.0, 2000.0,
        new RouterTransactions.Totals(0, 0, 0, 0));

    final String table = new WaterfallReport("zerolayer bench-latency").render(List.of(phase));

    assertThat(table).contains("| first 256 tokens | 5 | 5 | 5 | 5 |");
    assertThat(table).contains("| last 256 tokens | 30 | 30 | 30 | 30 |");
  }
}
