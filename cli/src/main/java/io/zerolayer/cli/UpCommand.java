package io.zerolayer.cli;

import io.zerolayer.deploy.stack.LocalDeployment;
import io.zerolayer.fleet.FleetConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code zerolayer up}: the embedded default. Starts a schema registry, a Kafka broker (or three), the
 * topics, the apps and a simulated fleet, sends a few requests, prints how each was routed and
 * answered, and keeps running until Ctrl-C, which stops everything.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
    description = "Starts the embedded default (registry, broker, topics, apps, a simulated fleet) and sends a few requests.")
final class UpCommand implements Callable<Integer> {


  @Option(names = "--brokers", defaultValue = "1",
      description = "Kafka brokers: 1, or 3 or more, whose topics keep three replicas, two in sync. Default: ${DEFAULT-VALUE}.")
  private int brokers;

  @Option(names = "--instances", defaultValue = "4", description = "Simulated instances. Default: ${DEFAULT-VALUE}.")
  private int instances;

  @Option(names = "--zones", defaultValue = "2", description = "Zones the instances spread over. Default: ${DEFAULT-VALUE}.")
  private int zones;

  @Option(names = "--requests", defaultValue = "8", description = "Requests to send once up. Default: ${DEFAULT-VALUE}.")
  private int requests;

  @Option(names = "--work-dir", defaultValue = "target/zerolayer-up",
      description = "Where the broker, registry and stores keep their files. Default: ${DEFAULT-VALUE}.")
  private Path workDir;

  @Option(names = "--exit", description = "Stop after the requests instead of running until Ctrl-C.")
  private boolean exitAfterRequests;

  @Override
  public Integer call() throws Exception {
    final CountDownLatch stop = new CountDownLatch(1);
    final LocalDeployment deployment = new LocalDeployment(System.out, brokers);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("Stopping: fleet, apps, broker, registry ...");
      deployment.close();
      System.out.println("Stopped.");
      stop.countDown();
    }, "zerolayer-up-shutdown"));
    deployment.start(workDir, instances, zones, DemoRequests.TENANTS,
        new FleetConfig(Map.of()).httpPort(), true);
    new DemoRequests(deployment.settings(), System.out).run(requests);
    deployment.printEndpoints(DemoRequests.API_KEY);
    if (exitAfterRequests) {
      return 0;
    }
    System.out.println("Running until Ctrl-C.");
    stop.await();
    return 0;
  }
}
