package io.zerolayer.router.internal;

import static java.util.Objects.requireNonNull;

import io.zerolayer.contract.avro.InferenceRequest;
import io.zerolayer.runtime.tenant.Tenant;
import io.zerolayer.runtime.tenant.TenantDirectory;
import io.zerolayer.runtime.tenant.TenantSignature;
import java.util.Optional;

/**
 * Stage 0's tenant check: the request names a tenant the directory knows, and either carries
 * that tenant's API key or was signed by an HTTP gateway holding the secret this router shares.
 */
final class TenantAuthentication {

  /**
   * @param tenant the tenant the request is authenticated as, or null
   * @param rejection why it is not, or null
   * @param viaGateway whether a gateway vouched for the tenant (it reads the answer for its client)
   */
  record Result(Tenant tenant, String rejection, boolean viaGateway) {
  }

  /** Why a request whose tenant id and key do not match a tenant is refused, whichever is wrong. */
  static final String REJECTION = "the tenant id and API key do not match a tenant: send a configured tenant's id"
      + " in tenantId and its key in apiKey";

  private final TenantDirectory tenants;
  private final Optional<TenantSignature> gateway;

  /**
   * @param gateway verifies the gateways' signatures; empty: signed requests are refused
   */
  TenantAuthentication(final TenantDirectory tenants, final Optional<TenantSignature> gateway) {
    this.tenants = requireNonNull(tenants, "tenants");
    this.gateway = requireNonNull(gateway, "gateway");
  }

  Result authenticate(final InferenceRequest request) {
    final Optional<Tenant> tenant = tenants.find(request.getTenantId());
    // An unknown tenant and a wrong key get one answer, after the same work, so that neither
    // tells a caller which tenant ids exist.
    final boolean accepted = tenant.map(known -> known.accepts(request.getApiKey())).orElseGet(() -> {
      Tenant.hashKey(request.getApiKey() == null ? "" : request.getApiKey());
      return false;
    });
    final boolean viaGateway = !accepted && signedByGateway(request);
    if (tenant.isEmpty() || !accepted && !viaGateway) {
      return new Result(null, REJECTION, false);
    }
    return new Result(tenant.get(), null, viaGateway);
  }

  private boolean signedByGateway(final InferenceRequest request) {
    return gateway.isPresent() && gateway.get().verifies(request.getTenantSignature(), request.getSequenceId(),
        request.getTenantId(), request.getSubmittedAtMs());
  }
}
