package io.zerolayer.runtime.tenant;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A tenant the routers serve, with its limits. Only the SHA-256 of its API key is kept.
 *
 * @param id the tenant id requests name
 * @param apiKeySha256 hex SHA-256 of the tenant's API key
 * @param requestsPerSecond sustained requests per second
 * @param tokensPerSecond sustained tokens per second (prompt tokens plus the output tokens asked for)
 * @param burstSeconds how many seconds of the sustained rates may be spent at once
 */
public record Tenant(String id, String apiKeySha256, double requestsPerSecond, double tokensPerSecond,
    double burstSeconds) {

  public Tenant {
    requireNonNull(id, "id");
    requireNonNull(apiKeySha256, "apiKeySha256");
    if (requestsPerSecond <= 0 || tokensPerSecond <= 0 || burstSeconds <= 0) {
      throw new IllegalArgumentException("Tenant " + id + ": requestsPerSecond, tokensPerSecond and burstSeconds"
          + " must be positive");
    }
  }

  /** The hex SHA-256 of an API key, as a tenant file holds it. */
  public static String hashKey(final String apiKey) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(apiKey.getBytes(StandardCharsets.UTF_8)));
    } catch (final NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Whether the key is this tenant's, compared in constant time. */
  public boolean accepts(final String apiKey) {
    return apiKey != null && MessageDigest.isEqual(
        hashKey(apiKey).getBytes(StandardCharsets.US_ASCII), apiKeySha256.getBytes(StandardCharsets.US_ASCII));
  }
}
