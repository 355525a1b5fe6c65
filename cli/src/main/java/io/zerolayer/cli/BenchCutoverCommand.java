package io.zerolayer.cli;

import io.zerolayer.bench.CutoverBenchmark;
import io.zerolayer.deploy.stack.LocalDeployment;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code zerolayer bench-cutover}: cut-over detection time and client pause on the embedded default. */
@Command(name = "bench-cutover", mixinStandardHelpOptions = true,
    description = "Stalls the worker of sequence after sequence and measures each cut-over; prints a table.")
final class BenchCutoverCommand implements Callable<Integer> {

  @Option(names = "--cutovers", defaultValue = "100", description = "Cut-overs to measure. Default: ${DEFAULT-VALUE}.")
  private int cutovers;

  @Option(names = "--work-dir", defaultValue = "target/zerolayer-bench-cutover",
      description = "Where the broker, registry and stores keep their files. Default: ${DEFAULT-VALUE}.")
  private Path workDir;

  @Override
  public Integer call() throws Exception {
    try (LocalDeployment deployment = new LocalDeployment(System.out)) {
      deployment.start(workDir, 3, 1, DemoRequests.TENANTS, 0, false);
      System.out.println("==> Stalling the worker of " + cutovers + " streaming sequences, one after another");
      new CutoverBenchmark(deployment.settings(), deployment.fleet(), System.out)
          .run(cutovers, DemoRequests.TENANT, DemoRequests.API_KEY);
    }
    return 0;
  }
}
