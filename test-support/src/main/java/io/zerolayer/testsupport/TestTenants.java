package io.zerolayer.testsupport;

import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import java.util.List;

/** Tenants of the integration tests; each one's API key is {@code key-<id>}. */
public final class TestTenants {

  /** Tenants with limits no test reaches. */
  public static final TenantDirectory UNLIMITED = TenantDirectory.of(List.of(
      unlimited("tenant-0"), unlimited("tenant-1"), unlimited("tenant-2"), unlimited("t")));

  private TestTenants() {
  }

  public static String key(final String tenantId) {
    return "key-" + tenantId;
  }

  private static Tenant unlimited(final String id) {
    return new Tenant(id, Tenant.hashKey(key(id)), 100_000, 100_000_000, 10);
  }
}
