package io.zerolayer.cli;

import io.zerolayer.bench.DispatchLatencyBenchmark;
import io.zerolayer.deploy.stack.LocalDeployment;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code zerolayer bench-router}: request-to-dispatch latency of the router on the embedded default. */
@Command(name = "bench-router", mixinStandardHelpOptions = true,
    description = "Measures request record to dispatch record latency on the real broker and prints a table.")
final class BenchRouterCommand implements Callable<Integer> {

  @Option(names = "--instances", defaultValue = "4", description = "Simulated instances. Default: ${DEFAULT-VALUE}.")
  private int instances;

  @Option(names = "--rate", defaultValue = "50", description = "Requests per second. Default: ${DEFAULT-VALUE}.")
  private int perSecond;

  @Option(names = "--requests", defaultValue = "1000", description = "Measured requests. Default: ${DEFAULT-VALUE}.")
  private int requests;

  @Option(names = "--warmup", defaultValue = "200", description = "Requests before measuring. Default: ${DEFAULT-VALUE}.")
  private int warmup;

  @Option(names = "--work-dir", defaultValue = "target/zerolayer-bench",
      description = "Where the broker, registry and stores keep their files. Default: ${DEFAULT-VALUE}.")
  private Path workDir;

  @Override
  public Integer call() throws Exception {
    try (LocalDeployment deployment = new LocalDeployment(System.out)) {
      deployment.start(workDir, instances, 2, DemoRequests.TENANTS, 0, false);
      System.out.println("==> Publishing " + (warmup + requests) + " requests at " + perSecond + "/s");
      new DispatchLatencyBenchmark(deployment.settings(), deployment.pipeline().routerMeters(), System.out).run(
          new DispatchLatencyBenchmark.Load(warmup, requests, perSecond, DemoRequests.TENANT, DemoRequests.API_KEY));
    }
    return 0;
  }
}
