package io.zerolayer.runtime.tenant;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The tenants a router serves, read from a JSON file:
 * {@code {"tenants": [{"id": "acme", "apiKeySha256": "<hex>", "requestsPerSecond": 50,
 * "tokensPerSecond": 20000, "burstSeconds": 2}]}}.
 */
public final class TenantDirectory {

  private final Map<String, Tenant> byId;

  private TenantDirectory(final Map<String, Tenant> byId) {
    this.byId = Map.copyOf(byId);
  }

  /** A directory of these tenants. */
  public static TenantDirectory of(final List<Tenant> tenants) {
    return new TenantDirectory(tenants.stream().collect(Collectors.toMap(Tenant::id, Function.identity())));
  }

  /** Reads a tenant file; the error names the file and what is wrong with it. */
  public static TenantDirectory fromFile(final Path file) {
    try {
      final TenantFile parsed = new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .readValue(file.toFile(), TenantFile.class);
      return of(parsed.tenants());
    } catch (final IOException | IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException("Cannot read the tenant file " + file.toAbsolutePath() + ": "
          + e.getMessage() + "; see the README's tenant file format", e);
    }
  }

  /** The tenant, if the directory knows it. */
  public Optional<Tenant> find(final String tenantId) {
    return Optional.ofNullable(byId.get(tenantId));
  }

  /**
   * The tenant whose API key this is. Every tenant's hash is compared in constant time, so how
   * long it takes says nothing of which tenant, if any, came close.
   */
  public Optional<Tenant> findByKey(final String apiKey) {
    if (apiKey == null || apiKey.isEmpty()) {
      return Optional.empty();
    }
    Tenant found = null;
    for (final Tenant tenant : byId.values()) {
      if (tenant.accepts(apiKey)) {
        found = tenant;
      }
    }
    return Optional.ofNullable(found);
  }

  /** Every tenant, by id. */
  public List<Tenant> all() {
    return byId.values().stream().sorted(Comparator.comparing(Tenant::id)).toList();
  }

  /** The JSON file's shape. */
  record TenantFile(List<Tenant> tenants) {
  }
}
