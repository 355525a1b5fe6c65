package io.zerolayer.router.internal;

import static io.zerolayer.router.internal.DeciderTest.heatmap;
import static io.zerolayer.router.internal.DeciderTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.RequestProfile;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LocalDispatchesTest {

  @Test
  void shouldCountDispatchesTheHeatmapHasNotSeenIntoTheQueue() {
    final LocalDispatches dispatches = new LocalDispatches();
    final InstanceScore row = row("gpu-1", 1.0, 2);
    row.setLastTelemetryMs(1_000);
    dispatches.record("gpu-1", 900);
    dispatches.record("gpu-1", 1_100);
    dispatches.record("gpu-1", 1_200);

    final Heatmap adjusted = dispatches.applyTo(heatmap(row), 1_300);

    assertThat(adjusted.row("gpu-1").getQueueLength()).isEqualTo(4);
  }

  @Test
  void shouldCountADispatchUnseenUntilASampleTakenAfterItReachedTheInstance() {
    final LocalDispatches dispatches = new LocalDispatches();
    // Its dispatches reach the worker 30 ms after the decision; sampled at 1,000 with none queued
    final InstanceScore row = row("gpu-1", 1.0, 0);
    row.getLatencyModel().setHandoffMs(30);
    row.setLastTelemetryMs(1_000);
    dispatches.record("gpu-1", 960);
    dispatches.record("gpu-1", 980);

    final Heatmap adjusted = dispatches.applyTo(heatmap(row), 1_010);

    // The one made at 980 had not reached it when it was sampled; the one at 960 had
    assertThat(adjusted.row("gpu-1").getRunningRequests()).isEqualTo(3);
  }

  @Test
  void shouldCountUnseenDispatchesAsRunningWhileTheInstanceHadNoQueue() {
    final LocalDispatches dispatches = new LocalDispatches();
    final InstanceScore row = row("gpu-1", 1.0, 0);
    row.setLastTelemetryMs(1_000);
    dispatches.record("gpu-1", 1_100);
    dispatches.record("gpu-1", 1_200);

    final Heatmap adjusted = dispatches.applyTo(heatmap(row), 1_300);

    assertThat(adjusted.row("gpu-1").getRunningRequests()).isEqualTo(4);
    assertThat(adjusted.row("gpu-1").getQueueLength()).isZero();
  }

  @Test
  void shouldQueueUnseenDispatchesBeyondTheInstancesBatch() {
    final LocalDispatches dispatches = new LocalDispatches();
    // Its batch holds 8; seen with 6 running and no queue, and 5 dispatches it has not seen
    final InstanceScore later = row("gpu-1", 1.0, 0);
    later.setBatchSlots(8);
    later.setRunningRequests(6);
    later.setLastTelemetryMs(2_000);
    for (int i = 0; i < 5; i++) {
      dispatches.record("gpu-1", 2_100);
    }

    final Heatmap adjusted = dispatches.applyTo(heatmap(later), 2_200);

    assertThat(adjusted.row("gpu-1").getRunningRequests()).isEqualTo(8);
    assertThat(adjusted.row("gpu-1").getQueueLength()).isEqualTo(3);
  }

  @Test
  void shouldSpreadABurstBetweenHeatmapUpdatesOverEqualInstances() {
    final LocalDispatches dispatches = new LocalDispatches();
    final Decider decider = new Decider(new LatencyAwarePolicy(), 1000, 4, 0);
    final Heatmap flat = heatmap(row("a", 1.0, 0), row("b", 1.0, 0), row("c", 1.0, 0));
    final Set<String> picked = new HashSet<>();

    for (int i = 0; i < 3; i++) {
      final Decision decision = decider.select(new RequestProfile("s" + i, 100, 50), dispatches.applyTo(flat, 10),
          () -> flat);
      dispatches.record(decision.instanceId(), 10);
      picked.add(decision.instanceId());
    }

    assertThat(picked).containsExactlyInAnyOrder("a", "b", "c");
  }
}
