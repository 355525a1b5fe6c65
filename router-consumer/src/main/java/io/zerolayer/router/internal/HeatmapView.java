package io.zerolayer.router.internal;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.cluster.ClusterSettings;
import io.zerolayer.contract.serde.ContractSerdes;
import io.zerolayer.contract.topic.Topics;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.runtime.CompactedView;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The compacted heatmap topic in memory ({@link CompactedView}), handed out as the policies'
 * {@link Heatmap}: one immutable snapshot per update the view applied, built once, with the
 * batches instances have not shown yet taken from their peers ({@link PeerBatchSlots}).
 */
public final class HeatmapView implements AutoCloseable {

  private final CompactedView<InstanceScore> rows;
  private final AtomicReference<Built> latest = new AtomicReference<>(new Built(null, Heatmap.empty()));

  /** A heatmap and the snapshot it was built from. */
  private record Built(CompactedView.Snapshot<InstanceScore> from, Heatmap heatmap) {
  }

  public HeatmapView(final ClusterSettings cluster, final ContractSerdes serdes) {
    rows = new CompactedView<>(cluster, cluster.catalogue().name(Topics.INSTANCE_SCORES),
        serdes.value(Topics.INSTANCE_SCORES).deserializer(), "heatmap-view");
  }

  /** The latest snapshot. */
  public Heatmap current() {
    final CompactedView.Snapshot<InstanceScore> now = rows.current();
    final Built built = latest.get();
    if (built.from() == now) {
      return built.heatmap();
    }
    final Built fresh = new Built(now, new Heatmap(PeerBatchSlots.fill(now.rows()), now.version()));
    latest.compareAndSet(built, fresh);
    return fresh.heatmap();
  }

  /** Whether the view has caught up with the topic as it was at start. */
  public boolean isReady() {
    return rows.isReady();
  }

  /** Waits until ready; false on timeout. */
  public boolean awaitReady(final Duration timeout) throws InterruptedException {
    return rows.awaitReady(timeout);
  }

  /** Whether the view stopped reading on an error; its snapshot is then frozen. */
  public boolean failed() {
    return rows.failed();
  }

  @Override
  public void close() {
    rows.close();
  }
}
