package io.zerolayer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.bench.Contender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code zerolayer bench --smoke} on the real broker and registry: the harness works end to end, whatever the figures. */
class BenchSmokeIT {

  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void shouldWriteTheTableTheCsvAndBothChartsForEveryPolicy(@TempDir final Path dir) throws Exception {
    final Path results = dir.resolve("results");

    final int exit = new CommandLine(new ZerolayerCli()).execute("bench", "--smoke", "--out", results.toString(),
        "--work-dir", dir.resolve("work").toString());

    assertThat(exit).isZero();
    final List<String> table = Files.readAllLines(results.resolve("results.md"));
    assertThat(table).contains("| figure | " + String.join(" | ", Contender.SMOKE) + " | goal (zerolayer) |");
    assertThat(table).anySatisfy(line -> assertThat(line).startsWith("| latency P99, ms | "));
    final List<String> csv = Files.readAllLines(results.resolve("outcomes.csv"));
    assertThat(csv.get(0)).startsWith("policy,sequence_id,measured,");
    for (final String policy : Contender.SMOKE) {
      assertThat(csv).as("requests of " + policy).anySatisfy(row -> assertThat(row).startsWith(policy + ","));
    }
    for (final String chart : List.of("latency-distribution.png", "p99-over-time.png")) {
      final byte[] png = Files.readAllBytes(results.resolve(chart));
      assertThat(png).as(chart).hasSizeGreaterThan(1_000).startsWith(PNG_SIGNATURE);
    }
  }
}
