package io.zerolayer.router.internal;

import static io.zerolayer.router.internal.DeciderTest.heatmap;
import static io.zerolayer.router.internal.DeciderTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.LeastOutstandingPolicy;
import io.zerolayer.router.policy.RequestProfile;
import org.junit.jupiter.api.Test;

class BackupSelectorTest {

  private static final RequestProfile REQUEST = new RequestProfile("seq-1", 100, 50);

  private final Decider decider = new Decider(new LatencyAwarePolicy(), 1000, 4, 0);
  private final BackupSelector backups = new BackupSelector(decider);

  @Test
  void shouldNeverPickTheStalledInstanceAsItsOwnBackup() {
    final Heatmap heatmap = heatmap(row("stalled", 1.0, 0), row("other", 1.0, 5));

    final Decision decision = decider.select(REQUEST, heatmap, () -> heatmap);
    final Decision backup = backups.selectBackup(REQUEST, heatmap, "stalled", "no token for 1200 ms", 1, false)
        .orElseThrow();

    assertThat(decision.instanceId()).isEqualTo("stalled");
    assertThat(backup.outcome()).isEqualTo(RoutingOutcome.CUTOVER);
    assertThat(backup.instanceId()).isEqualTo("other");
    assertThat(backup.reason()).contains("stalled (no token for 1200 ms)");
  }

  @Test
  void shouldResumeOnAWarmInstanceRatherThanACheaperColdOne() {
    final InstanceScore cold = row("cold", 1.0, 0);
    cold.setWarmupLevel(0.0);
    final Heatmap heatmap = heatmap(row("stalled", 1.0, 0), cold, row("warm", 1.0, 3));

    final Decision backup = backups.selectBackup(REQUEST, heatmap, "stalled", "no token for 1200 ms", 1, false)
        .orElseThrow();

    assertThat(backup.instanceId()).isEqualTo("warm");
    assertThat(backup.expectsWarm()).isTrue();
    final Decision onlyCold = backups.selectBackup(REQUEST, heatmap(row("stalled", 1.0, 0), cold), "stalled",
        "no token", 1, false).orElseThrow();
    assertThat(onlyCold.instanceId()).isEqualTo("cold");
    assertThat(onlyCold.expectsWarm()).isFalse();
  }

  @Test
  void shouldThrottleACutOverWhenOnlyTheStalledInstanceIsLeft() {
    final Heatmap heatmap = heatmap(row("stalled", 1.0, 0));

    final Decision backup = backups.selectBackup(REQUEST, heatmap, "stalled", "rate down 60%", 1, false).orElseThrow();

    assertThat(backup.outcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(backup.retryAfterMs()).isPositive();
  }

  @Test
  void shouldWaitForAnInstanceOnlyWhileTheSequenceMayAndAttemptsAreLeft() {
    final Heatmap heatmap = heatmap(row("stalled", 1.0, 0));

    assertThat(backups.selectBackup(REQUEST, heatmap, "stalled", "no token for 1200 ms", 1, true)).isEmpty();
    assertThat(backups.selectBackup(REQUEST, heatmap, "stalled", "no token for 1200 ms", 4, true).orElseThrow()
        .outcome()).isEqualTo(RoutingOutcome.THROTTLED);
  }

  @Test
  void shouldKeepAStreamSlowedByItsLossyNetworkOutOfEveryQueueWhileItMayWait() {
    final InstanceScore lossy = row("lossy", 1.0, 0);
    lossy.setZonePenalised(true);
    final Heatmap queued = heatmap(lossy, row("busy", 1.0, 6));

    assertThat(backups.selectBackup(REQUEST, queued, "lossy", "token rate down", 1, true))
        .as("no backup can start it at once: it goes on where it is").isEmpty();
    assertThat(backups.selectBackup(REQUEST, queued, "lossy", "token rate down", 1, false).orElseThrow()
        .instanceId()).as("quiet for the whole hold: resumed behind the queue").isEqualTo("busy");
    final InstanceScore idle = row("idle", 1.0, 0);
    idle.setZone("zone-b");
    final Heatmap spare = heatmap(lossy, row("busy", 1.0, 6), idle);
    assertThat(backups.selectBackup(REQUEST, spare, "lossy", "token rate down", 1, true).orElseThrow()
        .instanceId()).isEqualTo("idle");
    assertThat(new BackupSelector(new Decider(new LeastOutstandingPolicy(), 1000, 4, 0))
        .selectBackup(REQUEST, queued, "lossy", "token rate down", 1, true).orElseThrow().instanceId())
        .as("a comparison policy resumes it anywhere").isEqualTo("busy");
  }

  @Test
  void shouldMoveAnAttemptQueuedPastItsPredictionOnlyToAnInstanceThatStartsItAtOnce() {
    final String why = "queued: no first token 9000 ms after the decision, against 4000 ms predicted";
    final Heatmap everyoneQueues = heatmap(row("waiting", 1.0, 8), row("busy", 1.0, 3));

    assertThat(backups.selectStartingNow(REQUEST, everyoneQueues, "waiting", why, 1))
        .as("behind another queue it would wait again: it stays").isEmpty();

    final InstanceScore lossy = row("lossy", 1.0, 0);
    lossy.setZonePenalised(true);
    assertThat(backups.selectStartingNow(REQUEST, heatmap(row("waiting", 1.0, 8), row("busy", 1.0, 3), lossy),
        "waiting", why, 1)).as("only a lossy zone could start it: it stays").isEmpty();
    final Heatmap spare = heatmap(row("waiting", 1.0, 8), row("busy", 1.0, 3), lossy, row("idle", 1.0, 0));
    final Decision moved = backups.selectStartingNow(REQUEST, spare, "waiting", why, 1).orElseThrow();
    assertThat(moved.instanceId()).isEqualTo("idle");
    assertThat(moved.outcome()).isEqualTo(RoutingOutcome.CUTOVER);
    assertThat(moved.expectsWarm()).as("handed back if the instance turns out to be loading").isTrue();
    assertThat(backups.selectStartingNow(REQUEST, spare, "waiting", why, 4))
        .as("every allowed attempt used: it stays").isEmpty();
    assertThat(new BackupSelector(new Decider(new LeastOutstandingPolicy(), 1000, 4, 0))
        .selectStartingNow(REQUEST, spare, "waiting", why, 1)).as("a comparison policy leaves it").isEmpty();
  }

  @Test
  void shouldKeepTheStreamsOfALossyInstanceWhoseCadenceTookItsWeightOutOfEveryQueueWhileTheyMayWait() {
    final InstanceScore lossy = row("lossy", 0.0, 0);
    lossy.setNetworkDegraded(true);
    lossy.setState(InstanceState.UNAVAILABLE);
    lossy.setTokenIntervalStddevMs(80);
    lossy.setCutOverInFlight(true);
    final Heatmap queued = heatmap(lossy, row("busy", 1.0, 6));
    final String why = "owner lossy's token cadence is past the cut-over threshold";

    assertThat(backups.selectBackup(REQUEST, queued, "lossy", why, 1, true))
        .as("no backup can start it at once: it goes on where it is").isEmpty();
    lossy.setVramFragmentation(0.99);
    assertThat(backups.selectBackup(REQUEST, queued, "lossy", why, 1, true).orElseThrow().instanceId())
        .as("out of memory too: resumed behind the queue").isEqualTo("busy");
  }

  @Test
  void shouldResumeTheStreamOfALossyInstanceOutsideItsZoneWhileAnotherZoneCanTakeIt() {
    final InstanceScore lossy = row("lossy", 1.0, 0);
    lossy.setNetworkDegraded(true);
    final InstanceScore zoneMate = row("zone-mate", 1.0, 0);
    final InstanceScore elsewhere = row("elsewhere", 1.0, 2);
    elsewhere.setZone("zone-b");
    final Heatmap heatmap = heatmap(lossy, zoneMate, elsewhere, row("healthy", 1.0, 0));

    assertThat(backups.selectBackup(REQUEST, heatmap, "healthy", "token rate down", 1, false).orElseThrow()
        .instanceId()).as("the stall of an instance that loses nothing stays in its zone").isEqualTo("zone-mate");
    assertThat(backups.selectBackup(REQUEST, heatmap, "lossy", "token rate down", 1, false).orElseThrow()
        .instanceId()).as("cheaper, but on the lossy instance's network").isEqualTo("elsewhere");
    assertThat(backups.selectBackup(REQUEST, heatmap, "lossy", "token rate down", 1, true))
        .as("while it may wait, only another zone's instance that starts it at once").isEmpty();
    assertThat(backups.selectBackup(REQUEST, heatmap(lossy, zoneMate), "lossy", "token rate down", 1, false)
        .orElseThrow().instanceId()).as("no other zone left").isEqualTo("zone-mate");
    assertThat(new BackupSelector(new Decider(new LeastOutstandingPolicy(), 1000, 4, 0))
        .selectBackup(REQUEST, heatmap, "lossy", "token rate down", 1, false).orElseThrow().instanceId())
        .as("a comparison policy resumes it anywhere").isIn("zone-mate", "healthy");
  }

  @Test
  void shouldResumeAStalledStreamOnAHealthyInstanceBehindAQueue() {
    final Heatmap heatmap = heatmap(row("stalled", 1.0, 0), row("busy", 1.0, 6));

    assertThat(backups.selectBackup(REQUEST, heatmap, "stalled", "token rate down", 1, true).orElseThrow()
        .instanceId()).isEqualTo("busy");
  }

  @Test
  void shouldEndTheStreamWithTheErrorOnceEveryAllowedAttemptStalled() {
    final Heatmap heatmap = heatmap(row("stalled", 1.0, 0), row("spare", 1.0, 0));

    final Decision last = backups.selectBackup(REQUEST, heatmap, "stalled", "no token for 1200 ms", 4, false)
        .orElseThrow();

    assertThat(last.outcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(last.reason()).contains("all 4 attempts failed").contains("no token for 1200 ms");
    assertThat(last.retryAfterMs()).isPositive();
  }
}
