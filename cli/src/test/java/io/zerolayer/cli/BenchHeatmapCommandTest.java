package io.zerolayer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zerolayer.bench.HeatmapBenchmark;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

class BenchHeatmapCommandTest {

  @Test
  void shouldRunTheBriefsDefaultsWhenGivenNoOptions() {
    final BenchHeatmapCommand command = parse("bench-heatmap");

    assertThat(command.plan()).isEqualTo(
        new HeatmapBenchmark.Plan(200_000, 200, 2, 50, Duration.ofSeconds(30), Duration.ofSeconds(3)));
  }

  @Test
  void shouldEchoTheCommandLineAsTypedForTheCaption() {
    final BenchHeatmapCommand command = parse("bench-heatmap", "--records", "50000", "--duration", "10s",
        "--work-dir", "/tmp/my bench");

    assertThat(command.plan().records()).isEqualTo(50_000);
    assertThat(command.plan().duration()).isEqualTo(Duration.ofSeconds(10));
    assertThat(command.commandLine())
        .isEqualTo("zerolayer bench-heatmap --records 50000 --duration 10s --work-dir '/tmp/my bench'");
  }

  @Test
  void shouldRejectABacklogSpanningMoreThanHalfTheTelemetryRetention() {
    // 50 ms apart, 40,000 samples of one instance span 33 min; the topic keeps 1 h.
    final BenchHeatmapCommand command = parse("bench-heatmap", "--records", "40000", "--instances", "1");

    assertThatThrownBy(command::plan)
        .isInstanceOf(ParameterException.class)
        .hasMessageContaining("more instances or fewer records");
  }

  private static BenchHeatmapCommand parse(final String... args) {
    final ParseResult result = new CommandLine(new ZerolayerCli()).parseArgs(args);
    return result.subcommand().commandSpec().commandLine().getCommand();
  }
}
