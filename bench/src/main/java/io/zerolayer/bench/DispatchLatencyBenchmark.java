package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.zerolayer.contract.avro.DispatchTask;
import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.router.RouterMeterNames;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Request record to dispatch record latency on a running pipeline: requests are published at
 * a steady rate; for each, the time from the request record's timestamp to the dispatch
 * record's timestamp (decided and written by the router) and to the moment a worker can read
 * the dispatch (its transaction committed).
 */
public final class DispatchLatencyBenchmark {

  /** What to run. */
  public record Load(int warmup, int measured, int perSecond, String tenant, String apiKey) {
  }

  private final ClusterSettings cluster;
  private final PrintStream out;

  private final MeterRegistry routerMeters;

  /**
   * @param routerMeters the router's meters, to break its part down (transaction route and commit)
   */
  public DispatchLatencyBenchmark(final ClusterSettings cluster, final MeterRegistry routerMeters,
      final PrintStream out) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.routerMeters = requireNonNull(routerMeters, "routerMeters");
    this.out = requireNonNull(out, "out");
  }

  /** Runs the load and prints the table. */
  public void run(final Load load) throws Exception {
    final Map<String, Long> sentMs = new ConcurrentHashMap<>();
    final List<String> measured = new ArrayList<>();
    try (ContractSerdes serdes = new ContractSerdes(cluster.serdes());
        ChunkWatcher<DispatchTask> watcher = new ChunkWatcher<>(cluster, cluster.catalogue().name(Topics.DISPATCH),
            serdes.value(Topics.DISPATCH).deserializer(), DispatchTask::getSequenceId, true);
        KafkaProducer<String, InferenceRequest> producer = producer(serdes)) {
      final int total = load.warmup() + load.measured();
      final long intervalNanos = TimeUnit.SECONDS.toNanos(1) / load.perSecond();
      final long start = System.nanoTime();
      for (int i = 0; i < total; i++) {
        final long due = start + i * intervalNanos;
        TimeUnit.NANOSECONDS.sleep(Math.max(0, due - System.nanoTime()));
        final String id = "bench-" + i;
        producer.send(new ProducerRecord<>(cluster.catalogue().name(Topics.REQUESTS), id, request(id, load)),
            (metadata, error) -> {
              if (error == null) {
                sentMs.put(id, metadata.timestamp());
              }
            });
        if (i >= load.warmup()) {
          measured.add(id);
        }
        if ((i + 1) % load.perSecond() == 0) {
          out.printf("  sent %d/%d, dispatched %d%n", i + 1, total, watcher.sequences());
        }
      }
      awaitDispatches(watcher, total, Duration.ofSeconds(60));
      print(measured, sentMs, watcher, load);
    }
  }

  private void awaitDispatches(final ChunkWatcher<DispatchTask> watcher, final int total, final Duration timeout)
      throws InterruptedException {
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (watcher.sequences() < total && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  private void print(final List<String> measured, final Map<String, Long> sentMs, final ChunkWatcher<DispatchTask> watcher,
      final Load load) {
    final List<Long> written = new ArrayList<>();
    final List<Long> visible = new ArrayList<>();
    for (final String id : measured) {
      final List<ChunkWatcher.Seen<DispatchTask>> seen = watcher.of(id);
      final Long sent = sentMs.get(id);
      if (!seen.isEmpty() && sent != null) {
        written.add(seen.get(0).writtenMs() - sent);
        visible.add(seen.get(0).readAtMs() - sent);
      }
    }
    out.printf("%nRequest record to dispatch record, %d requests at %d/s after %d warm-up (%d without a dispatch)%n%n",
        measured.size(), load.perSecond(), load.warmup(), measured.size() - written.size());
    out.println("| from the request record's timestamp to | p50 ms | p90 ms | p99 ms | max ms |");
    out.println("|---|---:|---:|---:|---:|");
    row("dispatch record written (router decided)", new Percentiles(written));
    row("dispatch readable by committed readers (the router committed)", new Percentiles(visible));
    out.printf("%nInside the router, over the whole run (%s):%n%n", "Micrometer percentiles");
    out.println("| router transaction part | p50 ms | p99 ms | max ms | transactions |");
    out.println("|---|---:|---:|---:|---:|");
    timer("route a poll's records", routerMeters.get(RouterMeterNames.TRANSACTION_ROUTE).timer());
    timer("commit", routerMeters.get(RouterMeterNames.TRANSACTION_COMMIT).timer());
  }

  private void timer(final String label, final Timer timer) {
    final ValueAtPercentile[] percentiles = timer.takeSnapshot().percentileValues();
    out.printf("| %s | %.1f | %.1f | %.1f | %d |%n", label, percentiles[0].value(TimeUnit.MILLISECONDS),
        percentiles[1].value(TimeUnit.MILLISECONDS), timer.max(TimeUnit.MILLISECONDS), timer.count());
  }

  private void row(final String label, final Percentiles p) {
    out.printf("| %s | %d | %d | %d | %d |%n", label, p.at(50), p.at(90), p.at(99), p.max());
  }

  private KafkaProducer<String, InferenceRequest> producer(final ContractSerdes serdes) {
    final Map<String, Object> props = new HashMap<>(cluster.clientProperties());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    return new KafkaProducer<>(props, new StringSerializer(), serdes.value(Topics.REQUESTS).serializer());
  }

  private static InferenceRequest request(final String id, final Load load) {
    return InferenceRequest.newBuilder().setSequenceId(id).setTenantId(load.tenant()).setApiKey(load.apiKey())
        .setPrompt("Benchmark request " + id + ": answer briefly.").setMaxOutputTokens(16)
        .setSubmittedAtMs(System.currentTimeMillis()).build();
  }
}
