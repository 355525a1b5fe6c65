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
 * @param replyTopicPrefix the prefix of every reply topic the tenant's requests may name (topics
 *     whose ACLs grant the tenant's principal alone), or null for any
 */
public record Tenant(String id, String apiKeySha256, double requestsPerSecond, double tokensPerSecond,
    double burstSeconds, String replyTopicPrefix) {

  /** A tenant whose requests may name any reply topic. */
  public Tenant(final String id, final String apiKeySha256, final double requestsPerSecond,
      final double tokensPerSecond, final double burstSeconds) {
    this(id, apiKeySha256, requestsPerSecond, tokensPerSecond, burstSeconds, null);
  }

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

  /** Whether the tenant's requests may name this reply topic. */
  public boolean mayReplyTo(final String topic) {
    return replyTopicPrefix == null || topic.startsWith(replyTopicPrefix);
  }

  /** Whether the key is this tenant's, compared in constant time. */
  public boolean accepts(final String apiKey) {
    return apiKey != null && MessageDigest.isEqual(
        hashKey(apiKey).getBytes(StandardCharsets.US_ASCII), apiKeySha256.getBytes(StandardCharsets.US_ASCII));
  }
}
