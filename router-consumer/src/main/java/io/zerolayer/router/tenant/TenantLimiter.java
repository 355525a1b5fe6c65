package io.zerolayer.router.tenant;

import io.zerolayer.runtime.tenant.Tenant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-tenant request and token rates, as token buckets. A request is admitted when both
 * buckets hold enough now; otherwise the answer is exactly when they will. A charge stands once
 * the transaction that dispatched the request commits; one whose transaction was aborted is given
 * back, so that a tenant is never throttled for requests it did not get. Each router enforces the
 * limits on the requests it reads; with N routers a tenant may get up to N times its rates.
 */
public final class TenantLimiter {

  private final Map<String, Buckets> buckets = new HashMap<>();
  private final List<Charge> unsettled = new ArrayList<>();

  /**
   * The outcome of asking for admission.
   *
   * @param retryAfterMs 0 when admitted, else when to retry
   * @param problem why it can never be admitted, or null
   */
  public record Admission(long retryAfterMs, String problem) {
    public boolean admitted() {
      return retryAfterMs == 0 && problem == null;
    }
  }

  /** Whether a request of {@code tokens} may go now; takes nothing. */
  public Admission check(final Tenant tenant, final int tokens, final long nowNanos) {
    final Buckets tenantBuckets = bucketsOf(tenant, nowNanos);
    if (!tenantBuckets.tokens.fits(tokens)) {
      return new Admission(0, "the request needs " + tokens + " tokens (prompt and output), more than tenant "
          + tenant.id() + " may spend at once (" + Math.round(tenant.tokensPerSecond() * tenant.burstSeconds())
          + "): lower maxOutputTokens or shorten the prompt");
    }
    final long wait = Math.max(tenantBuckets.requests.waitMillis(1, nowNanos),
        tenantBuckets.tokens.waitMillis(tokens, nowNanos));
    return new Admission(wait, null);
  }

  /** Charges an admitted request to the tenant, until the transaction that dispatches it is settled. */
  public void charge(final Tenant tenant, final int tokens, final long nowNanos) {
    final Buckets tenantBuckets = bucketsOf(tenant, nowNanos);
    tenantBuckets.requests.take(1, nowNanos);
    tenantBuckets.tokens.take(tokens, nowNanos);
    unsettled.add(new Charge(tenantBuckets, tokens));
  }

  /**
   * Settles the charges since the last call: kept when their transaction committed, given back
   * when it was aborted (its requests are read again, and charged again if admitted).
   */
  public void settle(final boolean committed, final long nowNanos) {
    if (!committed) {
      for (final Charge charge : unsettled) {
        charge.buckets().requests.giveBack(1, nowNanos);
        charge.buckets().tokens.giveBack(charge.tokens(), nowNanos);
      }
    }
    unsettled.clear();
  }

  private Buckets bucketsOf(final Tenant tenant, final long nowNanos) {
    return buckets.computeIfAbsent(tenant.id(), id -> new Buckets(
        new TokenBucket(tenant.requestsPerSecond(), Math.max(1, tenant.requestsPerSecond() * tenant.burstSeconds()),
            nowNanos),
        new TokenBucket(tenant.tokensPerSecond(), tenant.tokensPerSecond() * tenant.burstSeconds(), nowNanos)));
  }

  private record Buckets(TokenBucket requests, TokenBucket tokens) {
  }

  private record Charge(Buckets buckets, int tokens) {
  }
}
