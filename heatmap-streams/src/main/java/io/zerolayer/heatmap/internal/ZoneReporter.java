package io.zerolayer.heatmap.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.ZoneStatus;
import io.zerolayer.contract.topic.Partitions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Judges zone health from every published row (a global store, the same on every task) and,
 * for the zones whose key hashes to this task's partition, reports each zone transition once.
 */
final class ZoneReporter {

  private final KeyValueStore<String, ZoneStatus> reported;
  private final ReadOnlyKeyValueStore<String, InstanceScore> rows;
  private final int partition;
  private final int partitions;

  ZoneReporter(final KeyValueStore<String, ZoneStatus> reported, final ReadOnlyKeyValueStore<String, InstanceScore> rows,
      final int partition, final int partitions) {
    this.reported = requireNonNull(reported, "reported");
    this.rows = requireNonNull(rows, "rows");
    this.partition = partition;
    this.partitions = partitions;
  }

  /** Every zone's verdict now; reports the transitions of the zones this task owns. */
  Map<String, ZoneHealth.Verdict> assess(final long nowMs, final HeatmapOutputs outputs) {
    final List<InstanceScore> all = new ArrayList<>();
    try (KeyValueIterator<String, InstanceScore> it = rows.all()) {
      it.forEachRemaining(entry -> all.add(entry.value));
    }
    final Map<String, ZoneHealth.Verdict> verdicts = ZoneHealth.assess(all);
    verdicts.values().stream().filter(verdict -> owns(verdict.zone()))
        .forEach(verdict -> report(verdict, nowMs, outputs));
    return verdicts;
  }

  private void report(final ZoneHealth.Verdict verdict, final long nowMs, final HeatmapOutputs outputs) {
    final ZoneStatus last = reported.get(verdict.zone());
    if (last != null && last.getState() == verdict.state()) {
      return;
    }
    reported.put(verdict.zone(), new ZoneStatus(verdict.zone(), verdict.state(), nowMs, verdict.members(),
        verdict.networkDegraded(), verdict.reason()));
    outputs.event(new Transition(Transition.ZONE, verdict.zone(), verdict.zone(),
        last == null ? "UNKNOWN" : last.getState().name(), verdict.state().name(), verdict.reason(),
        Map.of("members", (double) verdict.members(), "networkDegraded", (double) verdict.networkDegraded()),
        nowMs));
  }

  private boolean owns(final String zone) {
    return partition == Partitions.forKey(zone, partitions);
  }
}
