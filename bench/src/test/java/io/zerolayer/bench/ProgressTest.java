package io.zerolayer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
  private final AtomicLong nanos = new AtomicLong();

  @Test
  void shouldPrintAtMostOneLinePerSecondWithTheRateSinceTheLastLine() {
    final Progress progress = new Progress(out, "heatmap run 1", 200_000, "records", nanos::get);

    at(500, () -> progress.update(10_000, () -> "lag 190000"));
    at(1_000, () -> progress.update(20_000, () -> "lag 180000"));
    at(1_600, () -> progress.update(30_000, () -> "lag 170000"));
    at(3_000, () -> progress.update(50_000, () -> ""));

    assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactly(
        "  [heatmap run 1] 20,000 / 200,000 records, 20,000/s, lag 180000",
        "  [heatmap run 1] 50,000 / 200,000 records, 15,000/s");
  }

  @Test
  void shouldNotAskForTheDetailWhenNoLineIsDue() {
    final Progress progress = new Progress(out, "pre-produce", 10, "records", nanos::get);

    at(999, () -> progress.update(5, () -> {
      throw new AssertionError("detail asked for without a line");
    }));

    assertThat(bytes.size()).isZero();
  }

  private void at(final long millis, final Runnable action) {
    nanos.set(TimeUnit.MILLISECONDS.toNanos(millis));
    action.run();
  }
}
