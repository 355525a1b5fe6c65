package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.bench.P99Timeline.Point;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class P99TimelineTest {

  @Test
  void shouldTakeEachSecondsP99OverTheRequestsFinishedInTheWindowBeforeIt() {
    // Finished at 0.5 s (100 ms), 1.5 s (900 ms) and 3.8 s (200 ms)
    final PolicyRun run = new RunFixture()
        .completed("a", 400, 100, "gpu-0")
        .completed("b", 600, 900, "gpu-0")
        .completed("c", 3_600, 200, "gpu-0")
        .run("p");

    assertThat(P99Timeline.of(run, Duration.ofSeconds(2))).containsExactly(
        new Point(1, 100), new Point(2, 900), new Point(3, 900), new Point(4, 200));
  }
}
