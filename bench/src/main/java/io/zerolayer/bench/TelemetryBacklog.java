package io.zerolayer.bench;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Writes a backlog of telemetry before anything reads it: every instance in turn, 50 ms apart,
 * the newest round stamped with the time writing starts.
 */
final class TelemetryBacklog {

  private static final int LINGER_MS = 20;

  private final ClusterSettings cluster;
  private final PrintStream out;

  TelemetryBacklog(final ClusterSettings cluster, final PrintStream out) {
    this.cluster = requireNonNull(cluster, "cluster");
    this.out = requireNonNull(out, "out");
  }

  /** Publishes {@code records} samples and returns once the broker has acknowledged each. */
  void publish(final TelemetrySamples samples, final long records) {
    final Progress progress = new Progress(out, "pre-produce", records, "records acknowledged");
    final long startNanos = System.nanoTime();
    final long endMs = System.currentTimeMillis();
    try (ContractSerdes serdes = new ContractSerdes(cluster.serdes());
        TelemetrySender sender = new TelemetrySender(cluster, serdes, LINGER_MS)) {
      for (long n = 0; n < records; n++) {
        final TelemetrySamples.BacklogSlot slot = samples.slot(n, records, endMs);
        sender.send(samples.sample(slot.instance(), slot.sampleTimeMs()));
        progress.update(sender.acked(), () -> "");
      }
      sender.flush();
    }
    final double seconds = (System.nanoTime() - startNanos) / 1e9;
    out.printf(Locale.ROOT, "  %,d records acknowledged in %.2f s, %,.0f/s%n", records, seconds, records / seconds);
  }
}
