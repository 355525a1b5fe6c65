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
   */
  record Result(Tenant tenant, String rejection) {
  }

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
    if (tenant.isEmpty()) {
      return new Result(null, "tenant '" + request.getTenantId() + "' is not known: use a tenant id the operator"
          + " configured");
    }
    if (!tenant.get().accepts(request.getApiKey()) && !signedByGateway(request)) {
      return new Result(null, "the API key is missing or not valid for tenant '" + request.getTenantId()
          + "': send the tenant's API key in apiKey");
    }
    return new Result(tenant.get(), null);
  }

  private boolean signedByGateway(final InferenceRequest request) {
    return gateway.isPresent() && gateway.get().verifies(request.getTenantSignature(), request.getSequenceId(),
        request.getTenantId(), request.getSubmittedAtMs());
  }
}
