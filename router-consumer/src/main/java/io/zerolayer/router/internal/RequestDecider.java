package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.contract.avro.RoutingOutcome;
import io.zerolayer.contract.prefix.PrefixBlocks;
import io.zerolayer.contract.routing.RoutingReasons;
import io.zerolayer.router.policy.Heatmap;
import io.zerolayer.router.policy.LatencyPredictor;
import io.zerolayer.router.policy.RequestProfile;
import io.zerolayer.router.tenant.TenantLimiter;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.runtime.tenant.TenantSignature;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Stage 0 and stage 1 of a request, with no Kafka types: validate, authenticate the tenant,
 * refuse a sequence id in use (after authentication, so that only a tenant learns it; the answer
 * does not say whose) and a reply topic that does not exist, reject a model no instance serves, count prompt
 * tokens, apply the tenant's rate limits, then select an instance among those serving the request's model,
 * knowing how much of the prompt each one's prefix cache holds. Used by one router thread only.
 */
public final class RequestDecider {

  /**
   * @param decision what was decided
   * @param prompt the text a worker is given
   * @param inputTokens the prompt's tokens
   * @param tenantId the tenant the request was authenticated as, or null when it was refused before
   * @param replyTopic where to answer: the request's reply topic once it is known to be writable,
   *     else null (the response topic), so that a refusal never goes to a topic that cannot take it
   */
  public record Result(Decision decision, String prompt, int inputTokens, String tenantId, String replyTopic) {
  }

  /** Sessions a router remembers the instance of (about 200 bytes each). */
  static final int MAX_SESSIONS = 100_000;

  private final RequestValidator validator;
  private final TenantAuthentication authentication;
  private final TenantLimiter limiter = new TenantLimiter();
  private final PromptText promptText = new PromptText();
  private final Decider decider;
  private final LocalView view;
  private final SequenceHolds holds;
  private final Predicate<String> replyTopicExists;
  private final PrefixIndex prefixes;
  private final SessionAffinity sessions = new SessionAffinity(MAX_SESSIONS);

  /**
   * @param gatewaySignature verifies the tenant signatures of requests the HTTP gateways
   *     authenticated; empty: only API keys authenticate, and signed requests are refused
   * @param view this router's own dispatches and cut-aways, shared with the stall path
   * @param holds the sequence ids in use on this router's partitions
   * @param replyTopicExists whether a reply topic exists (a request naming one that does not is refused)
   * @param prefixes what each instance's prefix cache holds; told of every prompt dispatched
   */
  public RequestDecider(final RequestValidator validator, final TenantDirectory tenants,
      final Optional<TenantSignature> gatewaySignature, final Decider decider, final LocalView view,
      final SequenceHolds holds, final Predicate<String> replyTopicExists, final PrefixIndex prefixes) {
    this.validator = requireNonNull(validator, "validator");
    this.authentication = new TenantAuthentication(tenants, gatewaySignature);
    this.decider = requireNonNull(decider, "decider");
    this.view = requireNonNull(view, "view");
    this.holds = requireNonNull(holds, "holds");
    this.replyTopicExists = requireNonNull(replyTopicExists, "replyTopicExists");
    this.prefixes = requireNonNull(prefixes, "prefixes");
  }

  /**
   * @param key the record key
   * @param partition where the request record is on the ingress topic
   * @param offset and at which offset
   * @param heatmap the heatmap now; read again just before dispatch
   */
  public Result decide(final String key, final InferenceRequest request, final int partition, final long offset,
      final Supplier<Heatmap> heatmap, final long nowMs, final long nowNanos) {
    final Optional<String> invalid = validator.rejection(key, request);
    if (invalid.isPresent()) {
      return rejected(invalid.get(), "", 0, null);
    }
    final TenantAuthentication.Result authenticated = authentication.authenticate(request);
    if (authenticated.rejection() != null) {
      return rejected(authenticated.rejection(), "", 0, null);
    }
    final Tenant tenant = authenticated.tenant();
    if (holds.heldByAnother(request.getSequenceId(), partition, offset)) {
      return rejected(RoutingReasons.sequenceInUse(request.getSequenceId()), "", 0, tenant.id());
    }
    final String replyTopic = request.getReplyTopic();
    if (replyTopic == null && tenant.replyTopicPrefix() != null && !authenticated.viaGateway()) {
      // Its text must not reach the response topic, which principals that may read every tenant's read.
      return rejected("tenant " + tenant.id() + "'s answers go to reply topics of its own: name a replyTopic that"
          + " starts with '" + tenant.replyTopicPrefix() + "'", "", 0, tenant.id());
    }
    if (replyTopic != null) {
      final Optional<String> unwritable = validator.replyTopicProblem(replyTopic)
          .or(() -> tenant.mayReplyTo(replyTopic) ? Optional.empty() : Optional.of("replyTopic '" + replyTopic
              + "' is not one of tenant " + tenant.id() + "'s: name a topic that starts with '"
              + tenant.replyTopicPrefix() + "'"))
          .or(() -> replyTopicExists.test(replyTopic) ? Optional.empty() : Optional.of("replyTopic '" + replyTopic
              + "' does not exist: create it, with as many partitions as the response topic, or name none to read"
              + " the response topic"));
      if (unwritable.isPresent()) {
        return rejected(unwritable.get(), "", 0, tenant.id());
      }
    }
    final ModelScope scope = ModelScope.of(request.getModel());
    final Optional<String> unserved = scope.rejection(heatmap.get());
    if (unserved.isPresent()) {
      return new Result(refusal(unserved.get()), "", 0, tenant.id(), replyTopic);
    }
    final String prompt = PromptText.of(request);
    final int inputTokens = promptText.tokens(prompt);
    final int tokens = inputTokens + request.getMaxOutputTokens();
    final TenantLimiter.Admission admission = limiter.check(tenant, tokens, nowNanos);
    if (admission.problem() != null) {
      return new Result(refusal(admission.problem()), prompt, inputTokens, tenant.id(), replyTopic);
    }
    if (!admission.admitted()) {
      return new Result(new Decision(RoutingOutcome.THROTTLED, null, RoutingReasons.tenantOverLimit(tenant.id()),
          null, admission.retryAfterMs()), prompt, inputTokens, tenant.id(), replyTopic);
    }
    final long[] blocks = PrefixBlocks.of(prompt);
    final String session = request.getSessionId();
    final Heatmap seen = scope.applyTo(view.applyTo(heatmap.get(), nowMs));
    final Decision selected = decider.select(new RequestProfile(request.getSequenceId(), inputTokens,
        request.getMaxOutputTokens(), request.getIgnoreEos(), prefixes.match(blocks, prompt.length(), inputTokens),
        sessions.instance(tenant.id(), session)), seen, () -> scope.applyTo(heatmap.get()));
    final Decision decision = selected.dispatched()
        ? selected.plusLayerTime(waitedMs(request, nowMs) + LatencyPredictor.handoffMs(heatmap.get(),
            selected.instanceId()))
        : selected;
    if (decision.dispatched()) {
      prefixes.routed(decision.instanceId(), blocks);
      sessions.served(tenant.id(), session, decision.instanceId());
      limiter.charge(tenant, tokens, nowNanos);
      view.dispatched(selected, request.getSequenceId(), seen, nowMs);
      holds.hold(request.getSequenceId(), partition, offset);
    }
    return new Result(decision, prompt, inputTokens, tenant.id(), replyTopic);
  }

  /**
   * How long the request has waited since its client submitted it: 0 for a submission time in the
   * future (a client's clock ahead of the router's) or unset.
   */
  private static long waitedMs(final InferenceRequest request, final long nowMs) {
    final long submittedMs = request.getSubmittedAtMs();
    return submittedMs <= 0 || submittedMs > nowMs ? 0 : nowMs - submittedMs;
  }

  /**
   * Settles what the decisions since the last call took (tenant charges, sequence ids): kept when
   * their transaction committed, given back when it was aborted.
   */
  public void settle(final boolean committed, final long nowNanos) {
    limiter.settle(committed, nowNanos);
    holds.settle(committed);
  }

  /** A refusal before the reply topic is known to be writable: answered on the response topic. */
  private static Result rejected(final String reason, final String prompt, final int inputTokens,
      final String tenantId) {
    return new Result(refusal(reason), prompt, inputTokens, tenantId, null);
  }

  private static Decision refusal(final String reason) {
    return new Decision(RoutingOutcome.REJECTED, null, reason, null, null);
  }
}
