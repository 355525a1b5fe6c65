package io.zerolayer.bench.gateway;

import io.zerolayer.bench.Rehearsals;
import java.util.List;
import java.util.Locale;

/** The side-by-side table of a gateway benchmark, in Markdown. */
public final class GatewayBenchReport {

  private final String command;

  /**
   * @param command the command that ran it, for the table's heading
   */
  public GatewayBenchReport(final String command) {
    this.command = command;
  }

  public String render(final List<GatewayBenchmark.Phase> phases, final GatewayBenchmark.Plan plan) {
    final StringBuilder table = new StringBuilder();
    table.append("Gateway against direct: `").append(command).append("`\n\n");
    table.append(String.format(Locale.ROOT, "Every answer %d tokens; the engine paces them the same either way."
        + " Added = through Zerolayer minus direct, percentile by percentile, over the answered requests; refused ="
        + " answered at once with 503 and a retry time by the gateway's door, which lets no more answers open than"
        + " the layer delivers on time.%n%n", plan.outputTokens()));
    table.append("| requests/s each way | way | answered / refused / errors | TTFT p50 / p90 / p99 ms"
        + " | gap between pieces p50 / p99 ms | tokens/s p50 / p1 |\n");
    table.append("|---:|---|---:|---:|---:|---:|\n");
    for (final GatewayBenchmark.Phase phase : phases) {
      row(table, phase.rate(), "direct", phase.direct());
      row(table, phase.rate(), "through Zerolayer", phase.gateway());
      table.append(String.format(Locale.ROOT, "| %d | **added** | | **%.1f** / %.1f / **%.1f** | %.1f / %.1f"
          + " | %.1f %% / %.1f %% |%n", phase.rate(),
          added(phase, 50), added(phase, 90), added(phase, 99),
          phase.gateway().gapMs(50) - phase.direct().gapMs(50), phase.gateway().gapMs(99) - phase.direct().gapMs(99),
          change(phase.gateway().tokensPerSecond(50), phase.direct().tokensPerSecond(50)),
          change(phase.gateway().tokensPerSecond(1), phase.direct().tokensPerSecond(1))));
    }
    table.append(String.format(Locale.ROOT, "%nEach rate's warm-up (longer while the JIT compiled more than %.0f %%"
        + " of the last 10 s), and the cores busy while its measured requests were sent (both ways at once; the"
        + " machine has %d):%n%n", 100 * Rehearsals.QUIET_JIT_SHARE, Runtime.getRuntime().availableProcessors()));
    table.append("| requests/s each way | warm-up s | the layer, the client and the engine (one JVM) | its JIT"
        + " compiling (compile time, which counts a compiler waiting for a core too) | broker and registry |\n");
    table.append("|---:|---:|---:|---:|---:|\n");
    for (final GatewayBenchmark.Phase phase : phases) {
      table.append(String.format(Locale.ROOT, "| %d | %d | %.2f | %.2f | %.2f |%n", phase.rate(),
          phase.warmedUp().toSeconds(), phase.ownCores(), phase.compilerCores(), phase.childCores()));
    }
    return table.toString();
  }

  private static double added(final GatewayBenchmark.Phase phase, final double p) {
    return phase.gateway().firstTokenMs(p) - phase.direct().firstTokenMs(p);
  }

  private static double change(final double through, final double direct) {
    return 100.0 * (through - direct) / direct;
  }

  private static void row(final StringBuilder table, final int rate, final String way, final PathFigures figures) {
    table.append(String.format(Locale.ROOT,
        "| %d | %s | %d / %d / %d | %.1f / %.1f / %.1f | %.1f / %.1f | %.1f / %.1f |%n", rate, way,
        figures.answered(), figures.refused(), figures.errors(), figures.firstTokenMs(50), figures.firstTokenMs(90),
        figures.firstTokenMs(99), figures.gapMs(50), figures.gapMs(99), figures.tokensPerSecond(50),
        figures.tokensPerSecond(1)));
  }
}
