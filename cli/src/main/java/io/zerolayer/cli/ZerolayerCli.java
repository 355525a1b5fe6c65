package io.zerolayer.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code zerolayer} command line. */
@Command(name = "zerolayer", mixinStandardHelpOptions = true, version = "zerolayer 0.1.0",
    description = "Latency-aware routing for fleets of LLM inference servers, on Apache Kafka.",
    subcommands = {UpCommand.class, ChaosCommand.class, TopicsCommand.class, BenchRouterCommand.class, BenchLatencyCommand.class, BenchCutoverCommand.class,
        BenchHeatmapCommand.class, BenchGatewayCommand.class, BenchCommand.class})
public final class ZerolayerCli {

  public static void main(final String[] args) {
    System.exit(new CommandLine(new ZerolayerCli()).execute(args));
  }
}
