package io.zerolayer.worker.openai;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.telemetry.RunningRequestsPage;
import io.zerolayer.runtime.MetricsServer;
import io.zerolayer.runtime.ShutdownSignal;
import io.zerolayer.worker.SequencePrefixClient;
import io.zerolayer.worker.Worker;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A worker in front of a real OpenAI-compatible inference server, as its own process: takes
 * the instance's dispatch tasks and commands from Kafka and streams each task from the server.
 * Cluster settings come from {@link ClusterSettings#fromEnvironment}, the rest from
 * {@link OpenAiWorkerConfig#fromEnvironment}. Its HTTP port serves metrics and the page of what
 * each request running on the server may still generate ({@link RunningRequestsPage}), for
 * telemetry-ingest to scrape beside the server's metrics.
 */
public final class OpenAiWorkerApp {

  private OpenAiWorkerApp() {
  }

  /** The engine a config describes. */
  public static OpenAiCompatibleEngine engine(final OpenAiWorkerConfig config) {
    final SequencePrefixClient prefixes = new SequencePrefixClient(config.sequenceQueryUrl(),
        config.sequenceQueryToken(), config.networkTimeout(), config.sequenceRetryBackoff());
    return new OpenAiCompatibleEngine(config.baseUrl(), config.model(), config.apiKey(), config.networkTimeout(),
        config.responseTimeout(), prefixes);
  }

  public static void main(final String[] args) throws InterruptedException {
    final OpenAiWorkerConfig config = OpenAiWorkerConfig.fromEnvironment(System.getenv());
    final ClusterSettings cluster = ClusterSettings.fromEnvironment(System.getenv());
    // Nothing runs through the worker until it exists: the page is empty until then.
    final AtomicReference<Worker> started = new AtomicReference<>();
    final MetricsServer server = new MetricsServer("openai-worker", http -> http.get(RunningRequestsPage.PATH,
        ctx -> ctx.contentType(MetricsServer.PROMETHEUS_TEXT).result(RunningRequestsPage.render(
            Optional.ofNullable(started.get()).map(Worker::runningTokensToLimit).orElse(Map.of())))))
        .start(config.httpHost(), config.httpPort());
    final OpenAiCompatibleEngine engine = engine(config);
    final Worker worker = new Worker(config.instanceId(), cluster, new ContractSerdes(cluster.serdes()), engine,
        config.maxConcurrentTasks(), server.registry());
    started.set(worker);
    server.readyWhen(worker::isReady, "the worker's loop stopped on an error (its log says which)");
    ShutdownSignal.exitOnFailure("openai-worker", worker.failure());
    ShutdownSignal.awaitThenClose("openai-worker", worker, engine, server);
  }
}
