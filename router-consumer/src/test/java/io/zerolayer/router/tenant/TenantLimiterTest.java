package io.zerolayer.router.tenant;

import io.zerolayer.runtime.tenant.Tenant;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TenantLimiterTest {

  private static final long MS = 1_000_000L;

  // 2 requests/s, 1000 tokens/s, 1 s of burst
  private final Tenant tenant = new Tenant("acme", Tenant.hashKey("k"), 2, 1000, 1);
  private final TenantLimiter limiter = new TenantLimiter();

  @Test
  void shouldAdmitWithinTheBurstAndThenGiveTheExactWaitOfTheRequestBucket() {
    assertThat(limiter.check(tenant, 100, 0).admitted()).isTrue();
    limiter.charge(tenant, 100, 0);
    limiter.charge(tenant, 100, 0);

    // both request tokens spent; one comes back every 500 ms
    assertThat(limiter.check(tenant, 100, 0).retryAfterMs()).isEqualTo(500);
    assertThat(limiter.check(tenant, 100, 499 * MS).admitted()).isFalse();
    assertThat(limiter.check(tenant, 100, 500 * MS).admitted()).isTrue();
  }

  @Test
  void shouldGiveBackTheChargesOfAnAbortedTransactionAndKeepThoseOfACommittedOne() {
    limiter.charge(tenant, 100, 0);
    limiter.charge(tenant, 100, 0);
    limiter.settle(false, 0);

    assertThat(limiter.check(tenant, 100, 0).admitted()).as("both requests given back").isTrue();

    limiter.charge(tenant, 100, 0);
    limiter.charge(tenant, 100, 0);
    limiter.settle(true, 0);
    limiter.settle(false, 0);

    assertThat(limiter.check(tenant, 100, 0).retryAfterMs()).as("settled charges stand").isEqualTo(500);
  }

  @Test
  void shouldWaitForTheTokenBucketWhenItIsTheTighterOne() {
    limiter.charge(tenant, 900, 0);

    // 800 tokens needed, 100 left, 1000/s: 700 ms
    assertThat(limiter.check(tenant, 800, 0).retryAfterMs()).isEqualTo(700);
  }

  @Test
  void shouldRefuseARequestLargerThanTheTenantMaySpendAtOnce() {
    final TenantLimiter.Admission admission = limiter.check(tenant, 1001, 0);

    assertThat(admission.admitted()).isFalse();
    assertThat(admission.problem()).contains("1001 tokens").contains("lower maxOutputTokens");
  }

  @Test
  void shouldCheckApiKeysByTheirHash() {
    assertThat(tenant.accepts("k")).isTrue();
    assertThat(tenant.accepts("K")).isFalse();
    assertThat(tenant.accepts(null)).isFalse();
  }
}
