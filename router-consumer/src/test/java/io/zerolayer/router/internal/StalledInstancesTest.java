package io.zerolayer.router.internal;

import static io.zerolayer.router.internal.DeciderTest.heatmap;
import static io.zerolayer.router.internal.DeciderTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.RequestProfile;
import org.junit.jupiter.api.Test;

class StalledInstancesTest {

  private static final RequestProfile REQUEST = new RequestProfile("seq-1", 100, 50);

  private final StalledInstances stalled = new StalledInstances(3_000);
  private final Decider decider = new Decider(new LatencyAwarePolicy(), 1000, 4);

  @Test
  void shouldSendNewWorkElsewhereForAWhileAfterAStreamStalledOnAnInstance() {
    // "stalled" is idle and would win; "busy" has a queue of 3
    final Heatmap fleet = heatmap(row("stalled", 1.0, 0), row("busy", 1.0, 3));
    stalled.record("stalled", 10_000);

    final Heatmap during = stalled.applyTo(fleet, 12_000);
    final Heatmap after = stalled.applyTo(fleet, 13_001);

    assertThat(during.row("stalled").getWeight()).isEqualTo(StalledInstances.WEIGHT_FACTOR);
    assertThat(during.row("stalled").getReason()).endsWith("a stream stalled on it 2000 ms ago");
    assertThat(decider.select(REQUEST, during, () -> during).instanceId()).isEqualTo("busy");
    assertThat(after.row("stalled").getWeight()).isEqualTo(1.0);
    assertThat(decider.select(REQUEST, after, () -> after).instanceId()).isEqualTo("stalled");
  }

  @Test
  void shouldStillServeFromAStalledInstanceWhenItIsTheOnlyOne() {
    final Heatmap alone = heatmap(row("stalled", 1.0, 0));
    stalled.record("stalled", 10_000);

    final Heatmap view = stalled.applyTo(alone, 10_100);

    assertThat(decider.select(REQUEST, view, () -> view).instanceId()).isEqualTo("stalled");
  }

  @Test
  void shouldCountFromTheLatestStallReport() {
    stalled.record("a", 10_000);
    stalled.record("a", 12_000);
    stalled.record("a", 11_000);

    assertThat(stalled.applyTo(heatmap(row("a", 1.0, 0)), 14_500).row("a").getWeight())
        .isEqualTo(StalledInstances.WEIGHT_FACTOR);
  }
}
