package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Live telemetry into a running heatmap: every instance reports every 50 ms, and a consumer of
 * the score topic (committed records only) notes when each row arrives. Rows whose sample falls
 * in the warm-up are not measured.
 */
final class LiveLatencyBenchmark {

  private static final Duration DRAIN = Duration.ofSeconds(10);

  private final ClusterSettings cluster;
  private final PrintStream out;

  LiveLatencyBenchmark(final ClusterSettings cluster, final PrintStream out) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.out = requireNonNull(out, "out");
  }

  /** Publishes for {@code warmup} plus {@code measured} and returns the figures of the measured part. */
  ScoreLatency run(final TelemetrySamples samples, final Duration warmup, final Duration measured)
      throws InterruptedException {
    try (ContractSerdes serdes = new ContractSerdes(cluster.serdes());
        ChunkWatcher<InstanceScore> rows = new ChunkWatcher<>(cluster, cluster.catalogue().name(Topics.INSTANCE_SCORES),
            serdes.value(Topics.INSTANCE_SCORES).deserializer(), InstanceScore::getInstanceId, true);
        TelemetrySender sender = new TelemetrySender(cluster, serdes, 0)) {
      final long startMs = System.currentTimeMillis();
      final long fromMs = startMs + warmup.toMillis();
      final long toMs = fromMs + measured.toMillis();
      final long lastSampleMs = publish(samples, sender, rows, startMs, toMs);
      awaitRows(samples, rows, lastSampleMs);
      return ScoreLatency.of(read(samples, rows), fromMs, toMs);
    }
  }

  /** Sends a round of samples every interval until {@code toMs}; returns the last round's sample time. */
  private long publish(final TelemetrySamples samples, final TelemetrySender sender,
      final ChunkWatcher<InstanceScore> rows, final long startMs, final long toMs) throws InterruptedException {
    final long intervalMs = TelemetrySamples.SAMPLE_INTERVAL.toMillis();
    final long rounds = (toMs - startMs) / intervalMs;
    final Progress progress = new Progress(out, "live telemetry", rounds * samples.instances(), "samples");
    long sampleMs = startMs;
    for (long round = 0; round < rounds; round++) {
      TimeUnit.MILLISECONDS.sleep(Math.max(0, startMs + round * intervalMs - System.currentTimeMillis()));
      sampleMs = System.currentTimeMillis();
      for (int instance = 0; instance < samples.instances(); instance++) {
        sender.send(samples.sample(instance, sampleMs));
      }
      progress.update(sender.acked(),
          () -> String.format(Locale.ROOT, "%,d score rows read", rowCount(samples, rows)));
    }
    sender.flush();
    return sampleMs;
  }

  /** Waits until every instance's row shows the last round of samples, or the drain time is up. */
  private void awaitRows(final TelemetrySamples samples, final ChunkWatcher<InstanceScore> rows,
      final long lastSampleMs) throws InterruptedException {
    final long deadline = System.nanoTime() + DRAIN.toNanos();
    while (System.nanoTime() < deadline && !showsSample(samples, rows, lastSampleMs)) {
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  private static boolean showsSample(final TelemetrySamples samples, final ChunkWatcher<InstanceScore> rows,
      final long sampleMs) {
    for (int instance = 0; instance < samples.instances(); instance++) {
      final List<ChunkWatcher.Seen<InstanceScore>> seen = rows.of(samples.instanceId(instance));
      if (seen.isEmpty() || seen.get(seen.size() - 1).value().getLastTelemetryMs() < sampleMs) {
        return false;
      }
    }
    return true;
  }

  private static long rowCount(final TelemetrySamples samples, final ChunkWatcher<InstanceScore> rows) {
    long count = 0;
    for (int instance = 0; instance < samples.instances(); instance++) {
      count += rows.of(samples.instanceId(instance)).size();
    }
    return count;
  }

  private static List<ScoreLatency.ReadRow> read(final TelemetrySamples samples,
      final ChunkWatcher<InstanceScore> rows) {
    final List<ScoreLatency.ReadRow> read = new ArrayList<>();
    for (int instance = 0; instance < samples.instances(); instance++) {
      rows.of(samples.instanceId(instance)).forEach(
          seen -> read.add(new ScoreLatency.ReadRow(seen.value().getLastTelemetryMs(), seen.readAtMs())));
    }
    return read;
  }
}
