package io.zerolayer.router.internal;

import static io.zerolayer.router.internal.DeciderTest.heatmap;
import static io.zerolayer.router.internal.DeciderTest.row;
import static io.zerolayer.router.internal.DeciderTest.served;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.RequestProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StallDeciderTest {

  private static final String WHY = "owner gpu-0 ejected by the heatmap (test)";

  private final Decider decider = new Decider(new LatencyAwarePolicy(), 1000, 4, 0);
  private final LocalDispatches dispatches = new LocalDispatches();
  private final RecentCutovers cutovers = new RecentCutovers(0, Duration.ofSeconds(1), Duration.ofSeconds(2));
  private final StallDecider stalls = new StallDecider(decider,
      new LocalView(dispatches, new ExpectedWork(), cutovers));
  private final Heatmap fleet = heatmap(row("gpu-0", 1.0, 0), row("a", 1.0, 0), row("b", 1.0, 0),
      row("c", 1.0, 0));

  @Test
  void shouldSpreadTheStreamsOfAnEjectedInstanceOverTheBackups() {
    // Every stream of gpu-0 is reported within one heatmap update.
    final List<String> backups = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      backups.add(stalls.decide(new RequestProfile("s" + i, 300, 100), null, fleet, "gpu-0", WHY, 1, false, 10)
          .orElseThrow().instanceId());
    }

    assertThat(backups).containsExactlyInAnyOrder("a", "a", "b", "b", "c", "c");
  }

  @Test
  void shouldCountTheBackupsDispatchInTheSharedDispatches() {
    final Decision resumed = stalls.decide(new RequestProfile("s0", 300, 100), null, fleet, "gpu-0", WHY, 1, false, 10).orElseThrow();

    // The request path reads the same dispatches: the resumed stream counts on its backup.
    assertThat(resumed.outcome()).isEqualTo(RoutingOutcome.CUTOVER);
    assertThat(dispatches.applyTo(fleet, 20).row(resumed.instanceId()).getRunningRequests())
        .isEqualTo(fleet.row(resumed.instanceId()).getRunningRequests() + 1);
  }

  @Test
  void shouldPickTheBackupOnlyAmongTheInstancesOfTheRequestsModel() {
    // The idle instances serve another model; the only other instance of "llama" is busy.
    final Heatmap mixed = heatmap(served(row("gpu-0", 1.0, 0), "llama"), served(row("busy", 1.0, 6), "llama"),
        served(row("idle-1", 1.0, 0), "mistral"), served(row("idle-2", 1.0, 0), "mistral"));

    final Decision backup = stalls.decide(new RequestProfile("s0", 300, 100), "llama", mixed, "gpu-0", WHY, 1, false, 10).orElseThrow();

    assertThat(backup.outcome()).isEqualTo(RoutingOutcome.CUTOVER);
    assertThat(backup.instanceId()).isEqualTo("busy");
  }

  @Test
  void shouldThrottleACutoverWhenNoOtherInstanceServesTheModel() {
    final Heatmap mixed = heatmap(served(row("gpu-0", 1.0, 0), "llama"), served(row("idle", 1.0, 0), "mistral"));

    final Decision decision = stalls.decide(new RequestProfile("s0", 300, 100), "llama", mixed, "gpu-0", WHY, 1,
        false, 10).orElseThrow();

    assertThat(decision.outcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(decision.instanceId()).isNull();
  }

  @Test
  void shouldLeaveASequenceThatMayWaitWhereItIsWhenNoOtherInstanceCanTakeIt() {
    final Heatmap alone = heatmap(row("gpu-0", 1.0, 0), row("b", 1.0, 0));

    final Optional<Decision> waiting = stalls.decide(new RequestProfile("s0", 300, 100), null,
        heatmap(row("gpu-0", 1.0, 0)), "gpu-0", WHY, 1, true, 10);
    final Optional<Decision> later = stalls.decide(new RequestProfile("s0", 300, 100), null, alone, "gpu-0", WHY,
        1, true, 20);

    assertThat(waiting).isEmpty();
    assertThat(later.orElseThrow().instanceId()).isEqualTo("b");
  }

  @Test
  void shouldCountNoDispatchForAThrottledCutover() {
    final Heatmap alone = heatmap(row("gpu-0", 1.0, 0));

    final Decision decision = stalls.decide(new RequestProfile("s0", 300, 100), null, alone, "gpu-0", WHY, 1, false, 10).orElseThrow();

    assertThat(decision.outcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(dispatches.applyTo(alone, 20).row("gpu-0").getRunningRequests())
        .isEqualTo(alone.row("gpu-0").getRunningRequests());
  }
}
