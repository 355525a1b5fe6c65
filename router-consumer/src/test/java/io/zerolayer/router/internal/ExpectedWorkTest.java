package io.zerolayer.router.internal;

import static io.zerolayer.router.internal.DeciderTest.heatmap;
import static io.zerolayer.router.internal.DeciderTest.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyPredictor;
import io.zerolayer.router.policy.OwnWork;
import io.zerolayer.router.policy.RequestProfile;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ExpectedWorkTest {

  private static final RequestProfile REQUEST = new RequestProfile("seq-1", 100, 50);

  private final ExpectedWork work = new ExpectedWork();

  @Test
  void shouldKnowWhatEachRunningRequestHasLeftAndWhatEachQueuedOneWillTake() {
    work.dispatched("gpu-1", "a", 0, 1_000, 0);
    work.dispatched("gpu-1", "b", 10, 1_510, 10);
    work.dispatched("gpu-1", "c", 900, 1_300, 20);
    work.dispatched("gpu-2", "d", 0, 50, 20);

    final Function<String, OwnWork> at = work.at(100);

    // a and b run with 900 and 1,410 ms to go, c queues for its 400 ms of service; d ended.
    assertThat(slotFree(at.apply("gpu-1"), 2, 1)).as("c takes the slot a frees and ends before b")
        .isEqualTo(1_300.0);
    assertThat(at.apply("gpu-2")).isSameAs(OwnWork.NONE);
    assertThat(at.apply("gpu-3")).isSameAs(OwnWork.NONE);
  }

  @Test
  void shouldForgetASequenceCutAwayFromItsInstance() {
    work.dispatched("gpu-1", "a", 0, 1_000, 0);
    work.dispatched("gpu-1", "b", 0, 2_000, 0);

    work.cutAway("gpu-1", "a");

    assertThat(slotFree(work.at(100).apply("gpu-1"), 1, 0)).isEqualTo(1_900.0);
    work.cutAway("gpu-1", "b");
    assertThat(work.at(100).apply("gpu-1")).isSameAs(OwnWork.NONE);
  }

  @Test
  void shouldPredictTheRequestAfterABurstThatFilledTheBatchToWaitForTheBurstNotAShareOfIt() {
    final InstanceScore full = row("gpu-1", 1.0, 0);
    full.setRunningRequests(0);
    full.setBatchSlots(2);
    final LocalView view = new LocalView(new LocalDispatches(), work, new RecentCutovers(0, Duration.ZERO,
        Duration.ZERO));
    final Heatmap idle = heatmap(full);
    for (final String sequence : new String[] {"a", "b"}) {
      final Heatmap seen = view.applyTo(idle, 10);
      view.dispatched(new Decision(RoutingOutcome.DIRECT, "gpu-1", "test",
          LatencyPredictor.latencyMs(seen, seen.row("gpu-1"), REQUEST), null), sequence, seen, 10);
    }

    final Heatmap seen = view.applyTo(idle, 20);

    // Both slots taken at 10 ms by requests of 40 + 0.1 * 100 + 20 * 50 ms: the next waits for them.
    assertThat(LatencyPredictor.queueEstimateMs(seen, "gpu-1")).isCloseTo(1_050 - 10, within(1.0));
  }

  private static double slotFree(final OwnWork own, final int running, final int queued) {
    return LatencyPredictor.slotFreeMs(running, queued, 10_000, own);
  }
}
