package io.zerolayer.bench.gateway;

import io.micrometer.core.instrument.MeterRegistry;
import io.zerolayer.bench.TelemetrySamples;
import io.zerolayer.bench.TelemetrySender;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.worker.SequencePrefixClient;
import io.zerolayer.worker.Worker;
import io.zerolayer.worker.openai.OpenAiCompatibleEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Instances whose engine is one {@link PacedEngine}, each behind its own worker adapter for
 * OpenAI-compatible servers, as real servers would be deployed: each reports healthy telemetry
 * 20 times a second and takes its tasks from Kafka.
 */
public final class StandInFleet implements AutoCloseable {

  /** Tasks each worker streams from the engine at once: enough for the highest rate. */
  private static final int CONCURRENT_TASKS = 512;

  private final List<OpenAiCompatibleEngine> adapters = new ArrayList<>();
  private final List<Worker> workers = new ArrayList<>();
  private final List<String> instanceIds = new ArrayList<>();
  private final TelemetrySender telemetry;
  private final ScheduledExecutorService reporter;

  /**
   * @param model the model the engine serves, as the gateway's clients name it
   * @param tokenBufferUrl token-buffer's HTTP address, where a resumed task reads its prefix
   * @param queryToken token-buffer's query token
   */
  public StandInFleet(final int instances, final ClusterSettings cluster, final ContractSerdes serdes,
      final PacedEngine engine, final String model, final String tokenBufferUrl, final String queryToken,
      final MeterRegistry meters) {
    final TelemetrySamples samples = new TelemetrySamples("paced-", instances, 7);
    telemetry = new TelemetrySender(cluster, serdes, 0);
    reporter = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "paced-telemetry"));
    reporter.scheduleAtFixedRate(() -> {
      final long now = System.currentTimeMillis();
      for (int i = 0; i < instances; i++) {
        telemetry.send(samples.sample(i, now));
      }
    }, 0, TelemetrySamples.SAMPLE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    for (int i = 0; i < instances; i++) {
      final OpenAiCompatibleEngine adapter = new OpenAiCompatibleEngine(engine.root(), model, "",
          Duration.ofMillis(500), Duration.ofSeconds(60),
          new SequencePrefixClient(tokenBufferUrl, queryToken, Duration.ofMillis(500), Duration.ofMillis(200)));
      adapters.add(adapter);
      instanceIds.add(samples.instanceId(i));
      workers.add(new Worker(samples.instanceId(i), cluster, serdes, adapter, CONCURRENT_TASKS, meters));
    }
  }

  public List<String> instanceIds() {
    return List.copyOf(instanceIds);
  }

  @Override
  public void close() {
    reporter.shutdownNow();
    workers.forEach(Worker::close);
    adapters.forEach(OpenAiCompatibleEngine::close);
    telemetry.close();
  }
}
