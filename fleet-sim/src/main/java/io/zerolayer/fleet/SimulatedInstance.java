package io.zerolayer.fleet;

import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.telemetry.TelemetryPublisher;
import io.zerolayer.worker.Worker;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated instance on the real pipeline: its GPU publishes telemetry and its prefix cache's
 * events every 50 ms (none once it has crashed) and its worker takes dispatch tasks and commands like a real one.
 */
public final class SimulatedInstance implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SimulatedInstance.class);
  static final long TELEMETRY_INTERVAL_MS = 50;

  private final SimulatedGpu gpu;
  private final TelemetryPublisher telemetry;
  private final KvEventPublisher kvEvents;
  private final Worker worker;
  private final ScheduledExecutorService clock;

  public SimulatedInstance(final SimulatedGpu gpu, final String instanceId, final GpuProfile profile,
      final ClusterSettings cluster, final ContractSerdes serdes, final MeterRegistry meters) {
    this.gpu = gpu;
    this.telemetry = new TelemetryPublisher(cluster, serdes);
    this.kvEvents = new KvEventPublisher(cluster, serdes);
    // Queued tasks wait inside the engine, where the queue shows in telemetry.
    this.worker = new Worker(instanceId, cluster, serdes, gpu, profile.maxBatch() * 8, meters);
    this.clock = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, instanceId + "-telemetry"));
    clock.scheduleAtFixedRate(this::report, 0, TELEMETRY_INTERVAL_MS, TimeUnit.MILLISECONDS);
  }

  private void report() {
    try {
      gpu.sample(System.currentTimeMillis()).ifPresent(telemetry::publish);
      gpu.kvEvents().forEach(kvEvents::publish);
    } catch (final RuntimeException e) {
      LOG.warn("Telemetry sample not published", e);
    }
  }

  @Override
  public void close() {
    clock.shutdownNow();
    gpu.close();
    worker.close();
    telemetry.close();
    kvEvents.close();
  }
}
