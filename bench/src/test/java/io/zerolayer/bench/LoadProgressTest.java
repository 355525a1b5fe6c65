package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.fleet.load.RequestOutcome.Status;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class LoadProgressTest {

  private final PolicyRun run = new RunFixture()
      .completed("old", 0, 1_000, "gpu-0")
      .completed("recent", 8_000, 1_500, "gpu-0")
      .outcome("error", Status.TIMED_OUT, 0, 9_000, List.of())
      .outcome("throttled", Status.THROTTLED, 9_000, 9_001, List.of())
      .run("p");
  private final LoadProgress progress = new LoadProgress(new PrintStream(OutputStream.nullOutputStream()), "p2c",
      Duration.ofSeconds(5), Duration.ofSeconds(20), new Workload.Running(new CompletableFuture<>(), List::of, () -> 0),
      0);

  @Test
  void shouldSayThePhaseTheCountsAndTheRecentP99() {
    assertThat(progress.line(Duration.ofSeconds(10), 12, run.outcomes(), 10_000_000_000L)).isEqualTo(
        "  [p2c] measuring   10 s, concurrency 12: 4 done, 1 errors, 1 throttled, p99 last 5 s 1,500 ms");
  }

  @Test
  void shouldTellWarmUpFromDrainingAndShowNoP99WithoutRecentRequests() {
    assertThat(progress.line(Duration.ofSeconds(4), 3, List.of(), 0)).startsWith("  [p2c] warm-up      4 s")
        .endsWith("p99 last 5 s -");
    assertThat(progress.line(Duration.ofSeconds(21), 3, run.outcomes(), 60_000_000_000L))
        .startsWith("  [p2c] draining    21 s").endsWith("p99 last 5 s -");
  }
}
