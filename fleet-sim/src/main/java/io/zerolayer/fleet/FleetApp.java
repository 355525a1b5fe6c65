package io.zerolayer.fleet;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.fleet.fault.FaultInjector;
import io.zerolayer.fleet.fault.FaultSchedule;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import java.time.Instant;
import java.util.Map;

/**
 * A simulated fleet as its own process, shaped by {@link FleetConfig} (from {@code ZEROLAYER_FLEET_...}
 * variables). {@code --faults <schedule>} (or {@code ZEROLAYER_FLEET_FAULTS}, default none) injects faults,
 * timed from the fleet's start, in {@link FaultSchedule}'s grammar, e.g.
 * {@code oom@20s:gpu-3, zone-loss@40s:zone-b, recover@60s:gpu-3}.
 */
public final class FleetApp {

  private static final String FAULTS_OPTION = "--faults";

  private FleetApp() {
  }

  public static void main(final String[] args) throws InterruptedException {
    final Map<String, String> env = System.getenv();
    final FleetConfig config = FleetConfig.fromEnvironment(env);
    final FaultSchedule faults = FaultSchedule.parse(faultsOption(args, config.faults()));
    final MetricsServer server = new MetricsServer("fleet-sim", http -> { }).start(config.httpHost(),
        config.httpPort());
    final Fleet fleet = Fleet.start(ClusterSettings.fromEnvironment(env), config.idPrefix(), config.instances(),
        config.zones(), GpuProfile.standard(), server.registry());
    final FaultInjector injector;
    try {
      injector = new FaultInjector(fleet, faults);
    } catch (final IllegalArgumentException e) {
      fleet.close();
      server.close();
      throw e;
    }
    injector.start(Instant.now());
    ShutdownSignal.awaitThenClose("fleet-sim", injector, fleet, server);
  }

  /** The schedule given as {@code --faults <schedule>} or {@code --faults=<schedule>}, else {@code fallback}. */
  private static String faultsOption(final String[] args, final String fallback) {
    String schedule = fallback;
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith(FAULTS_OPTION + "=")) {
        schedule = args[i].substring(FAULTS_OPTION.length() + 1);
      } else if (args[i].equals(FAULTS_OPTION)) {
        if (i + 1 == args.length) {
          throw new IllegalArgumentException(FAULTS_OPTION + " needs a schedule: " + FaultSchedule.ENTRY_FORM);
        }
        schedule = args[++i];
      } else {
        throw new IllegalArgumentException("Unknown argument '" + args[i] + "'; usage: FleetApp ["
            + FAULTS_OPTION + " <schedule>], schedule entries of the form " + FaultSchedule.ENTRY_FORM);
      }
    }
    return schedule;
  }
}
