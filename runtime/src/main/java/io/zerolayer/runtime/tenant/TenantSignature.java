package io.zerolayer.runtime.tenant;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How the HTTP gateway vouches for the tenant of a request it authenticated, without putting the
 * tenant's API key on a topic: an HMAC-SHA256, under a secret the gateway shares with the routers,
 * of the request's sequence id, tenant id and submission time. A router that holds the same secret
 * takes a request whose signature matches as authenticated; nobody who can only read the ingress
 * topic can sign another request.
 */
public final class TenantSignature {

  private static final String ALGORITHM = "HmacSHA256";
  /** Shorter secrets are refused: an HMAC key should be at least as long as its output. */
  public static final int MIN_SECRET_BYTES = 32;

  private final SecretKeySpec key;

  /**
   * @param secret the shared secret, at least {@value #MIN_SECRET_BYTES} bytes in UTF-8
   */
  public TenantSignature(final String secret) {
    requireNonNull(secret, "secret");
    final byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
    if (bytes.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException("The gateway signing secret has " + bytes.length + " bytes; it needs at"
          + " least " + MIN_SECRET_BYTES + " (for example: openssl rand -hex 32)");
    }
    this.key = new SecretKeySpec(bytes, ALGORITHM);
  }

  /** A new random secret (32 bytes, hex), for a deployment that starts its gateway and routers together. */
  public static String newSecret() {
    final byte[] secret = new byte[MIN_SECRET_BYTES];
    new SecureRandom().nextBytes(secret);
    return HexFormat.of().formatHex(secret);
  }

  /** The hex signature of these fields of a request. */
  public String sign(final String sequenceId, final String tenantId, final long submittedAtMs) {
    try {
      final Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      final String message = sequenceId + '\n' + tenantId + '\n' + submittedAtMs;
      return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
    } catch (final GeneralSecurityException e) {
      throw new IllegalStateException(ALGORITHM + " is missing from this JVM", e);
    }
  }

  /** Whether the signature is this secret's for these fields, compared in constant time. */
  public boolean verifies(final String signature, final String sequenceId, final String tenantId,
      final long submittedAtMs) {
    return signature != null && sequenceId != null && tenantId != null && MessageDigest.isEqual(
        sign(sequenceId, tenantId, submittedAtMs).getBytes(StandardCharsets.US_ASCII),
        signature.getBytes(StandardCharsets.US_ASCII));
  }
}
