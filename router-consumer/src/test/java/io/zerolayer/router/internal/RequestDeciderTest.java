package io.zerolayer.router.internal;

import static io.zerolayer.router.internal.DeciderTest.heatmap;
import static io.zerolayer.router.internal.DeciderTest.row;
import static io.zerolayer.router.internal.DeciderTest.served;
import static org.assertj.core.api.Assertions.assertThat;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.InstanceScore;
import io.zerolayer.contract.avro.InstanceState;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyAwarePolicy;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.runtime.tenant.TenantSignature;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RequestDeciderTest {

  private static final long MS = 1_000_000L;

  private Heatmap fleet = heatmap(row("gpu-1", 1.0, 0));
  private final RecentCutovers cutovers = new RecentCutovers(2, Duration.ofSeconds(1), Duration.ofSeconds(2));
  private final SequenceHolds holds = new SequenceHolds();
  private final TenantSignature gateway = new TenantSignature("a-secret-the-gateways-and-routers-share");
  private final RequestDecider decider = decider(Optional.of(gateway));

  @Test
  void shouldRejectAnUnknownTenantAndAWrongKeyWithTheSameAnswer() {
    final RequestDecider.Result unknown = decide(request().setTenantId("nobody").build(), 0);
    final RequestDecider.Result wrongKey = decide(request().setApiKey("bad").build(), 0);

    assertThat(unknown.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(wrongKey.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(unknown.decision().reason()).isEqualTo(wrongKey.decision().reason())
        .isEqualTo(TenantAuthentication.REJECTION).doesNotContain("nobody");
  }

  @Test
  void shouldRejectAWrongOrMissingApiKey() {
    assertThat(decide(request().setApiKey("bad").build(), 0).decision().reason()).contains("API key");
    assertThat(decide(request().setApiKey(null).build(), 0).decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
  }

  @Test
  void shouldCountPromptTokensWithTheTokenizer() {
    // cl100k_base: "Hello world" is two tokens
    assertThat(decide(request().setPrompt("Hello world").build(), 0).inputTokens()).isEqualTo(2);
  }

  @Test
  void shouldThrottleATenantOverItsRateWithTheExactWait() {
    assertThat(decide(request().build(), 0).decision().outcome()).isEqualTo(RoutingOutcome.DIRECT);

    final RequestDecider.Result second = decide(request().setSequenceId("s2").build(), 250 * MS);

    // 1 request/s and a burst of 1: the next request token is due 1000 ms after the first
    assertThat(second.decision().outcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(second.decision().retryAfterMs()).isEqualTo(750);
    assertThat(decide(request().setSequenceId("s3").build(), 1000 * MS).decision().outcome())
        .isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldNotChargeTheTenantForARejectedOrThrottledRequest() {
    decide(request().setMaxOutputTokens(0).build(), 0);

    assertThat(decide(request().build(), 0).decision().outcome()).isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldKeepNewRequestsOffAnInstanceTheStallPathJustCutTwoSequencesAwayFrom() {
    fleet = heatmap(row("gpu-1", 1.0, 0), row("gpu-2", 1.0, 4));
    cutovers.cutAway("gpu-1", "a", 0);
    cutovers.cutAway("gpu-1", "b", 100);

    assertThat(decide(request().build(), 200 * MS).decision().instanceId()).isEqualTo("gpu-2");
    assertThat(decide(request().setSequenceId("s2").build(), 2_100 * MS).decision().instanceId())
        .as("2 s after the latest cut-over").isEqualTo("gpu-1");
  }

  @Test
  void shouldAcceptARequestTheGatewaySignedInsteadOfAnApiKey() {
    final InferenceRequest signed = request().setApiKey(null)
        .setTenantSignature(gateway.sign("s1", "acme", 0)).build();

    assertThat(decide(signed, 0).decision().outcome()).isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldRefuseASignatureTheGatewayMadeForAnotherTenant() {
    final InferenceRequest borrowed = request().setTenantId("globex").setApiKey(null)
        .setTenantSignature(gateway.sign("s1", "acme", 0)).build();

    final RequestDecider.Result result = decide(borrowed, 0);

    assertThat(result.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(result.decision().reason()).isEqualTo(TenantAuthentication.REJECTION);
  }

  @Test
  void shouldRefuseASignedRequestWhenNoGatewaySecretIsConfigured() {
    final InferenceRequest signed = request().setApiKey(null)
        .setTenantSignature(gateway.sign("s1", "acme", 0)).build();

    final RequestDecider.Result result = decider(Optional.empty()).decide("s1", signed, 0, 0, () -> fleet, 0, 0);

    assertThat(result.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(result.decision().reason()).isEqualTo(TenantAuthentication.REJECTION);
  }

  @Test
  void shouldSendARequestForAModelOnlyToInstancesServingIt() {
    // The instances of the other model are idle and would win on cost alone.
    fleet = heatmap(served(row("llama-1", 1.0, 3), "llama"), served(row("llama-2", 1.0, 5), "llama"),
        served(row("mistral-1", 1.0, 0), "mistral"), served(row("mistral-2", 1.0, 0), "mistral"));

    for (int i = 0; i < 20; i++) {
      final InferenceRequest request = request().setSequenceId("s" + i).setTenantId("globex")
          .setApiKey("globex-key").setReplyTopic("globex.replies").setModel("llama").build();

      assertThat(decide(request, i * MS).decision().instanceId()).startsWith("llama-");
    }
  }

  @Test
  void shouldRejectARequestForAModelNoInstanceServesAndNameTheServedOnes() {
    final InstanceScore ejected = served(row("mistral-1", 0.0, 0), "mistral");
    ejected.setState(InstanceState.EJECTED);
    fleet = heatmap(served(row("llama-1", 1.0, 0), "llama"), ejected);

    final RequestDecider.Result result = decide(request().setModel("gpt-4").build(), 0);

    assertThat(result.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(result.decision().reason())
        .isEqualTo("model 'gpt-4' is not served by any instance: ask for one of [llama, mistral]");
  }

  @Test
  void shouldThrottleARequestForAModelWhoseInstancesCannotTakeWork() {
    final InstanceScore ejected = served(row("mistral-1", 0.0, 0), "mistral");
    ejected.setState(InstanceState.EJECTED);
    fleet = heatmap(served(row("llama-1", 1.0, 0), "llama"), ejected);

    final RequestDecider.Result result = decide(request().setModel("mistral").build(), 0);

    assertThat(result.decision().outcome()).isEqualTo(RoutingOutcome.THROTTLED);
    assertThat(result.decision().retryAfterMs()).as("the default: no instance of the model has room").isEqualTo(1000);
  }

  @Test
  void shouldRejectAnotherRequestWithTheIdOfAnUnfinishedSequenceWhicheverTenantSentIt() {
    assertThat(decide(request().build(), 10, 0).decision().dispatched()).isTrue();

    final RequestDecider.Result sameTenant = decide(request().build(), 11, MS);
    final RequestDecider.Result otherTenant = decide(request().setTenantId("globex").setApiKey("globex-key").build(),
        12, 2 * MS);

    assertThat(sameTenant.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(otherTenant.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(otherTenant.decision().reason()).as("the same answer, which says nothing of the holder")
        .isEqualTo(sameTenant.decision().reason())
        .isEqualTo("sequence id 's1' is in use by a sequence that has not ended: give every request a new sequence"
            + " id");
    assertThat(otherTenant.tenantId()).isEqualTo("globex");
  }

  @Test
  void shouldRouteTheSameRequestReadAgainAndAReuseOfAReleasedId() {
    assertThat(decide(request().build(), 10, 0).decision().dispatched()).isTrue();
    // Seconds apart: the tenant may send one request a second.
    assertThat(decide(request().build(), 10, 2_000 * MS).decision().dispatched())
        .as("read again after an aborted transaction").isTrue();

    holds.apply("s1", null);

    assertThat(decide(request().build(), 20, 4_000 * MS).decision().dispatched()).isTrue();
  }

  @Test
  void shouldChargeATenantAtItsLimitOnlyForCommittedDecisionsOverFiftyAbortedTransactions() {
    // acme may send one request a second; each one is first decided in a transaction that aborts, then read again
    for (int i = 0; i < 50; i++) {
      final long at = i * 1_000 * MS;
      final InferenceRequest request = request().setSequenceId("s" + i).build();

      assertThat(decide(request, i, at).decision().dispatched()).isTrue();
      decider.settle(false, at);
      assertThat(decide(request, i, at).decision().outcome()).as("request %d read again", i)
          .isNotEqualTo(RoutingOutcome.THROTTLED);
      decider.settle(true, at);
    }

    assertThat(decide(request().setSequenceId("s50").build(), 50, 49_500 * MS).decision().outcome())
        .as("half a second after the last committed one").isEqualTo(RoutingOutcome.THROTTLED);
  }

  @Test
  void shouldGiveUpTheSequenceIdsOfAnAbortedTransaction() {
    assertThat(decide(request().build(), 10, 0).decision().dispatched()).isTrue();
    decider.settle(false, 0);

    assertThat(holds.heldByAnother("s1", 0, 11)).isFalse();
  }

  @Test
  void shouldRefuseAReplyTopicThatDoesNotExistAndRouteToOneThatDoes() {
    final RequestDecider.Result missing = decide(request().setReplyTopic("no-such-replies").build(), 0);
    final RequestDecider.Result present = decide(request().setSequenceId("s2").setReplyTopic("client-replies")
        .build(), 2, 2_000 * MS);

    assertThat(missing.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(missing.decision().reason()).startsWith("replyTopic 'no-such-replies' does not exist");
    assertThat(missing.replyTopic()).as("the refusal goes to the response topic").isNull();
    assertThat(present.decision().dispatched()).isTrue();
    assertThat(present.replyTopic()).isEqualTo("client-replies");
  }

  @Test
  void shouldRefuseAReplyTopicOutsideTheTenantsPrefix() {
    final InferenceRequest.Builder globex = request().setTenantId("globex").setApiKey("globex-key");

    final RequestDecider.Result others = decide(globex.setSequenceId("g1").setReplyTopic("client-replies").build(),
        1, 0);

    assertThat(others.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(others.decision().reason())
        .isEqualTo("replyTopic 'client-replies' is not one of tenant globex's: name a topic that starts with"
            + " 'globex.'");
    assertThat(others.replyTopic()).isNull();
  }

  @Test
  void shouldRefuseAKafkaRequestOfATenantWithReplyTopicsThatNamesNoneButNotItsGatewaysRequests() {
    final RequestDecider.Result unnamed = decide(request().setTenantId("globex").setApiKey("globex-key")
        .setSequenceId("g2").build(), 1, 0);
    final InferenceRequest viaGateway = request().setTenantId("globex").setApiKey(null).setSequenceId("g3")
        .setTenantSignature(gateway.sign("g3", "globex", 0)).build();

    assertThat(unnamed.decision().outcome()).isEqualTo(RoutingOutcome.REJECTED);
    assertThat(unnamed.decision().reason()).isEqualTo("tenant globex's answers go to reply topics of its own: name a"
        + " replyTopic that starts with 'globex.'");
    assertThat(decide(viaGateway, 2, 0).decision().outcome()).isEqualTo(RoutingOutcome.DIRECT);
  }

  @Test
  void shouldNotTellAnUnauthenticatedCallerThatAnIdIsInUse() {
    decide(request().build(), 10, 0);

    final RequestDecider.Result stranger = decide(request().setApiKey("wrong").build(), 11, MS);

    assertThat(stranger.decision().reason()).doesNotContain("in use");
    assertThat(stranger.tenantId()).isNull();
  }

  @Test
  void shouldSendARequestNamingNoModelToAnyInstance() {
    fleet = heatmap(served(row("llama-1", 1.0, 3), "llama"), served(row("mistral-1", 1.0, 0), "mistral"));

    assertThat(decide(request().setModel(" ").build(), 0).decision().instanceId()).isEqualTo("mistral-1");
  }

  @Test
  void shouldPredictFromTheSubmissionWithTheWaitBeforeTheDecisionAndTheInstancesHandoff() {
    final InferenceRequest request = request().setSubmittedAtMs(5_000).build();
    final Decision engine = decide(request, 5_000 * MS).decision();
    final double engineOnly = engine.predictedTtftMs();
    final InstanceScore measured = row("gpu-1", 1.0, 0);
    measured.getLatencyModel().setHandoffMs(6.0);
    fleet = heatmap(measured);

    final Decision waited = decider(Optional.of(gateway)).decide("s1", request, 0, 0, () -> fleet, 5_030, 0)
        .decision();
    final Decision clockAhead = decider(Optional.of(gateway)).decide("s1", request, 0, 0, () -> fleet, 4_000, 0)
        .decision();

    assertThat(waited.predictedTtftMs()).isEqualTo(engineOnly + 30 + 6);
    assertThat(waited.predictedLatencyMs()).isEqualTo(engine.predictedLatencyMs() + 30 + 6);
    assertThat(clockAhead.predictedTtftMs()).as("a client clock ahead of the router's: no wait")
        .isEqualTo(engineOnly + 6);
  }

  private RequestDecider decider(final Optional<TenantSignature> gatewaySignature) {
    return new RequestDecider(new RequestValidator(4096, 10_000, Set.of()),
        TenantDirectory.of(List.of(new Tenant("acme", Tenant.hashKey("good-key"), 1, 100_000, 1),
            new Tenant("globex", Tenant.hashKey("globex-key"), 1_000, 1_000_000, 1, "globex."))),
        gatewaySignature, new Decider(new LatencyAwarePolicy(), 1000, 4, 0),
        new LocalView(new LocalDispatches(), new ExpectedWork(), cutovers), holds,
        Set.of("client-replies", "globex.replies")::contains,
        new PrefixIndex(1_000));
  }

  /** Decides the request as read from one place of the ingress topic, as if read again each time. */
  private RequestDecider.Result decide(final InferenceRequest request, final long nanos) {
    return decide(request, 0, nanos);
  }

  private RequestDecider.Result decide(final InferenceRequest request, final long offset, final long nanos) {
    return decider.decide(request.getSequenceId(), request, 0, offset, () -> fleet, nanos / MS, nanos);
  }

  private static InferenceRequest.Builder request() {
    return InferenceRequest.newBuilder().setSequenceId("s1").setTenantId("acme").setApiKey("good-key")
        .setPrompt("Tell me a story").setMaxOutputTokens(64).setSubmittedAtMs(0);
  }
}
