package io.zerolayer.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.LatencyModel;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.router.policy.LatencyPredictor;
import io.zerolayer.router.policy.LeastOutstandingPolicy;
import io.zerolayer.router.policy.RequestProfile;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DeciderTest {

  private static final RequestProfile REQUEST = new RequestProfile("seq-1", 100, 50);

  private final Decider decider = new Decider(new LatencyAwarePolicy(), 1000, 4, 0);

  @Test
  void shouldPickTheInstanceWithTheLowestPredictedCost() {
    final Heatmap heatmap = heatmap(row("slow", 1.0, 4), row("fast", 1.0, 0), row("busy", 1.0, 9));

    final Decision decision = decider.select(REQUEST, heatmap, () -> heatmap);

    assertThat(decision.outcome()).isEqualTo(RoutingOutcome.DIRECT);
    assertThat(decision.instanceId()).isEqualTo("fast");
    assertThat(decision.expectsWarm()).as("chosen as warm: its worker hands it back if it is loading").isTrue();
  }

  @Test
  void shouldExpectNoWarmInstanceFromAPolicyThatDoesNotLookAtWarmUp() {
    final Heatmap heatmap = heatmap(row("a", 1.0, 0), row("b", 1.0, 2));

    final Decision decision = new Decider(new LeastOutstandingPolicy(), 1000, 4, 0).select(REQUEST, heatmap,
        () -> heatmap);

    assertThat(decision.instanceId()).isEqualTo("a");
    assertThat(decision.expectsWarm()).isFalse();
  }

  @Test
  void shouldDivideTheCostByTheWeight() {
    final Heatmap heatmap = heatmap(row("fragmented", 0.1, 0), row("clean", 1.0, 1));

    assertThat(decider.select(REQUEST, heatmap, () -> heatmap).instanceId()).isEqualTo("clean");
  }

  @Test
  void shouldFallBackToTheNextBestWhenTheFirstTurnsUnusableBeforeDispatch() {
    final Heatmap atSelection = heatmap(row("a", 1.0, 0), row("b", 1.0, 2));
    final InstanceScore ejected = row("a", 0.0, 0);
    ejected.setState(InstanceState.EJECTED);
    final Heatmap atDispatch = heatmap(ejected, row("b", 1.0, 2));

    final Decision decision = decider.select(REQUEST, atSelection, () -> atDispatch);

    assertThat(decision.outcome()).isEqualTo(RoutingOutcome.FALLBACK);
    assertThat(decision.instanceId()).isEqualTo("b");
    assertThat(decision.expectsWarm()).isTrue();
  }

  @Test
  void shouldPreWarmAnInstanceBelow95PercentWarmUp() {
    final InstanceScore cold = row("cold", 1.0, 0);
    cold.setWarmupLevel(0.4);
    final Heatmap heatmap = heatmap(cold, row("warm", 1.0, 6));

    final Decision decision = decider.select(REQUEST, heatmap, () -> heatmap);

    assertThat(decision.outcome()).isEqualTo(RoutingOutcome.PREWARMED);
    assertThat(decision.preWarmInstance()).isEqualTo("cold");
    assertThat(decision.instanceId()).as("served warm while warm capacity is left").isEqualTo("warm");
    assertThat(decision.expectsWarm()).isTrue();
  }

  @Test
  void shouldServeOnAColdInstanceWhenNoWarmOneCanTakeTheRequest() {
    final InstanceScore cold = row("cold", 1.0, 0);
    cold.setWarmupLevel(0.4);
    final InstanceScore busy = row("busy", 1.0, 6);
    busy.setState(InstanceState.UNAVAILABLE);
    final Heatmap heatmap = heatmap(cold, busy);

    final Decision decision = decider.select(REQUEST, heatmap, () -> heatmap);

    assertThat(decision.outcome()).isEqualTo(RoutingOutcome.PREWARMED);
    assertThat(decision.instanceId()).isEqualTo("cold");
    assertThat(decision.preWarmInstance()).isEqualTo("cold");
    assertThat(decision.expectsWarm()).as("sent knowingly to wait for the load").isFalse();
  }

  @Test
  void shouldAvoidAPenalisedZoneWhileAnotherZoneCanServe() {
    final InstanceScore lossy = row("lossy", 1.0, 0);
    lossy.setZonePenalised(true);
    final Heatmap heatmap = heatmap(lossy, row("healthy", 1.0, 0));

    assertThat(decider.select(REQUEST, heatmap, () -> heatmap).instanceId()).isEqualTo("healthy");
  }

  @Test
  void shouldSendWorkToAPenalisedZoneWhenTheOtherZonesQueuesCostMoreThanItsLoss() {
    final InstanceScore lossy = row("lossy", 0.05, 0);
    lossy.setZonePenalised(true);
    final Heatmap heatmap = heatmap(lossy, row("healthy", 1.0, 20));

    assertThat(decider.select(REQUEST, heatmap, () -> heatmap).instanceId())
        .as("twenty queued on the healthy zone's one instance cost more than three times an idle lossy one")
        .isEqualTo("lossy");
  }

  @Test
  void shouldKeepWorkOffAPenalisedZoneThatPredictsFasterWhileAHealthyInstanceHasAFreeSlot() {
    final InstanceScore lossy = row("lossy", 1.0, 0);
    lossy.setZonePenalised(true);
    final InstanceScore slow = row("slow", 1.0, 0);
    slow.getLatencyModel().setLatencyPerOutputTokenMs(80);
    final Heatmap headroom = heatmap(lossy, slow);
    final InstanceScore queuing = row("slow", 1.0, 1);
    queuing.getLatencyModel().setLatencyPerOutputTokenMs(80);
    final Heatmap full = heatmap(lossy, queuing);

    assertThat(decider.select(REQUEST, headroom, () -> headroom).instanceId())
        .as("a healthy instance four times slower, but with room in its batch").isEqualTo("slow");
    assertThat(decider.select(REQUEST, full, () -> full).instanceId())
        .as("once it queues, the lossy one's price is weighed against it").isEqualTo("lossy");
  }

  @Test
  void shouldAvoidANetworkDegradedInstanceBeforeItsZoneIsPenalised() {
    final InstanceScore lossy = row("lossy", 1.0, 0);
    lossy.setNetworkDegraded(true);
    final Heatmap heatmap = heatmap(lossy, row("healthy", 1.0, 0));

    assertThat(decider.select(REQUEST, heatmap, () -> heatmap).instanceId()).isEqualTo("healthy");
    assertThat(new BackupSelector(decider).selectBackup(REQUEST, heatmap, "other", "no token for 1200 ms", 1, false)
        .orElseThrow().instanceId()).isEqualTo("healthy");
  }

  @Test
  void shouldUseAPenalisedZoneWhenNothingElseIsLeft() {
    final InstanceScore lossy = row("lossy", 1.0, 0);
    lossy.setZonePenalised(true);
    final Heatmap heatmap = heatmap(lossy);

    assertThat(decider.select(REQUEST, heatmap, () -> heatmap).instanceId()).isEqualTo("lossy");
  }

  @Test
  void shouldKeepNewWorkOffAnInstanceJustCutAwayFromWhileAnotherCanServe() {
    final Heatmap heatmap = heatmap(row("emptied", 1.0, 0), row("busy", 1.0, 6)).withCutAway(Set.of("emptied"));

    assertThat(decider.select(REQUEST, heatmap, () -> heatmap).instanceId()).isEqualTo("busy");
    assertThat(new BackupSelector(decider).selectBackup(REQUEST, heatmap, "other", "no token for 1200 ms", 1, false)
        .orElseThrow().instanceId()).isEqualTo("busy");
  }

  @Test
  void shouldUseAnInstanceJustCutAwayFromWhenNothingElseIsLeft() {
    final InstanceScore penalised = row("lossy-zone", 1.0, 0);
    penalised.setZonePenalised(true);
    final Heatmap heatmap = heatmap(row("emptied", 1.0, 0), penalised).withCutAway(Set.of("emptied"));

    assertThat(decider.select(REQUEST, heatmap, () -> heatmap).instanceId())
        .as("a penalised zone before an instance whose streams just stalled").isEqualTo("lossy-zone");
    final Heatmap alone = heatmap(row("emptied", 1.0, 0)).withCutAway(Set.of("emptied"));
    assertThat(decider.select(REQUEST, alone, () -> alone).outcome()).isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldPassOverAnInstanceThatWouldQueueTheRequestLongerThanTheBound() {
    // "queued" costs least (its weight is full) but would queue the request some 6.6 s
    final Heatmap heatmap = heatmap(row("queued", 1.0, 4), row("idle", 0.1, 0));

    assertThat(decider.select(REQUEST, heatmap, () -> heatmap).instanceId()).as("unbounded").isEqualTo("queued");
    final Decision bounded = new Decider(new LatencyAwarePolicy(), 1000, 4, 5_000)
        .select(REQUEST, heatmap, () -> heatmap);
    assertThat(bounded.outcome()).isEqualTo(RoutingOutcome.DIRECT);
    assertThat(bounded.instanceId()).isEqualTo("idle");
  }

  @Test
  void shouldThrottleUntilTheShortestQueueIsShortEnoughWhenEveryInstanceWouldQueueLongerThanTheBound() {
    final Heatmap heatmap = heatmap(row("a", 1.0, 8), row("b", 1.0, 4));
    final double shortestWaitMs = LatencyPredictor.queueWaitMs(heatmap, "b");

    final Decision decision = new Decider(new LatencyAwarePolicy(), 1000, 4, 5_000)
        .select(REQUEST, heatmap, () -> heatmap);

    assertThat(shortestWaitMs).isGreaterThan(5_000).isLessThan(LatencyPredictor.queueWaitMs(heatmap, "a"));
    assertThat(decision.outcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(decision.retryAfterMs()).isEqualTo((long) Math.ceil(shortestWaitMs - 5_000));
    assertThat(decision.reason()).contains("router.max.queue.wait.ms");
    assertThat(new Decider(new LeastOutstandingPolicy(), 1000, 4, 5_000).select(REQUEST, heatmap, () -> heatmap)
        .outcome()).as("a comparison policy queues as the balancer it imitates").isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldThrottleWithARetryTimeFromTheFleetWhenNothingIsUsable() {
    final InstanceScore saturated = row("hot", 0.0, 8);
    saturated.setState(InstanceState.UNAVAILABLE);
    final Heatmap heatmap = heatmap(saturated);

    final Decision decision = decider.select(REQUEST, heatmap, () -> heatmap);

    assertThat(decision.outcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(decision.instanceId()).isNull();
    // Behind 8 queued, 9 typical requests (40 + 0.1 * 256 + 20 * 128 = 2625.6 ms each) to finish over 2
    // running, then one typical
    assertThat(decision.retryAfterMs()).isEqualTo(Math.round(9 * 2625.6 / 2 + 2625.6));
  }

  static Heatmap heatmap(final InstanceScore... rows) {
    return new Heatmap(Arrays.stream(rows).collect(Collectors.toMap(InstanceScore::getInstanceId,
        Function.identity())), 1);
  }

  /** The row, as of an instance that serves {@code model}. */
  static InstanceScore served(final InstanceScore row, final String model) {
    row.setModel(model);
    return row;
  }

  static InstanceScore row(final String id, final double weight, final int queue) {
    return InstanceScore.newBuilder()
        .setInstanceId(id).setZone("zone-a").setModel("sim").setState(InstanceState.HEALTHY).setWeight(weight)
        .setReason("test").setWarmupLevel(1.0).setGpuUtilization(0.5).setVramFragmentation(0.1)
        .setTokenIntervalStddevMs(3).setTcpRetransmitRate(0).setQueueLength(queue).setRunningRequests(2)
        .setDecodeTokensPerS(800).setZonePenalised(false)
        .setLatencyModel(LatencyModel.newBuilder().setLatencyInterceptMs(40).setLatencyPerInputTokenMs(0.1)
            .setLatencyPerOutputTokenMs(20).setTtftInterceptMs(40).setTtftPerInputTokenMs(0.1)
            .setSamples(0).build())
        .setLastTelemetryMs(0).setUpdatedAtMs(0)
        .build();
  }
}
